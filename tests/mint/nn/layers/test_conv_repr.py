"""mint.nn convolution Cells print as MindSpore 2.10's (the mint docs page prints its Conv2d)."""
import pytest

from sporax import mint

# print(cell) recorded from MindSpore 2.10 (CPU)
RECORDED = [
    (lambda: mint.nn.Conv1d(2, 3, 3),
     "Conv1d(input_channels=2, output_channels=3, kernel_size=(3,), stride=(1,), padding=(0,), dilation=(1,), "
     "groups=1, bias=True)"),
    (lambda: mint.nn.Conv2d(2, 3, 3, padding="same", padding_mode="reflect", bias=False),
     "Conv2d(input_channels=2, output_channels=3, kernel_size=(3, 3), stride=(1, 1), padding=same, "
     "dilation=(1, 1), groups=1, bias=False)"),
    (lambda: mint.nn.Conv3d(2, 3, 3),
     "Conv3d(input_channels=2, output_channels=3, kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=(0, 0, 0), "
     "dilation=(1, 1, 1), groups=1, bias=True)"),
    (lambda: mint.nn.ConvTranspose2d(2, 3, 3, stride=2, output_padding=1),
     "ConvTranspose2d(input_channels=2, output_channels=3, kernel_size=(3, 3), stride=(2, 2), padding=(0, 0), "
     "dilation=(1, 1), groups=1, bias=True)"),
    (lambda: mint.nn.Conv2d(16, 33, (3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1)),
     "Conv2d(input_channels=16, output_channels=33, kernel_size=(3, 5), stride=(2, 1), padding=(4, 2), "
     "dilation=(3, 1), groups=1, bias=True)"),
]


@pytest.mark.parametrize("make, printed", RECORDED)
def test_convolution_cells_print_as_mindspore(make, printed):
    assert repr(make()) == printed
