"""grid_sample's modes as MindSpore 2.10 has them: 'bicubic' is documented but refused by every grid sampler."""
import numpy as np
import pytest

from sporax import Tensor, mint, ops

X = Tensor(np.arange(9, dtype=np.float32).reshape(1, 1, 3, 3))
GRID = Tensor(np.zeros((1, 1, 1, 2), np.float32))


@pytest.mark.parametrize("call", [
    lambda: ops.grid_sample(X, GRID, mode="bicubic"),
    lambda: mint.nn.functional.grid_sample(X, GRID, mode="bicubic"),
    lambda: ops.GridSampler2D("bicubic")(X, GRID),
], ids=["ops", "mint", "GridSampler2D"])
def test_bicubic_is_refused_with_mindspores_value_error(call):
    # MindSpore 2.10 on CPU: ValueError 'Failed to convert the value "bicubic" of input 'interpolation_mode' ...'.
    with pytest.raises(ValueError, match="bicubic.*'bilinear' or 'nearest'"):
        call()


def test_unknown_mode_names_the_accepted_ones_and_the_others_sample():
    with pytest.raises(ValueError, match="'mode' must be 'bilinear' or 'nearest'"):
        ops.grid_sample(X, GRID, mode="area")
    # The grid's (0, 0) is the centre pixel, which both accepted modes read exactly.
    for mode in ("bilinear", "nearest"):
        assert ops.grid_sample(X, GRID, mode=mode).asnumpy().item() == 4.0


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_mint_grid_sample_gives_ops_values_for_every_padding_mode(padding_mode, align_corners):
    # MindSpore 2.10: mint.nn.functional.grid_sample equals ops.grid_sample exactly for all these modes.
    state = np.random.RandomState(1)
    x = Tensor(state.randn(1, 2, 3, 4).astype(np.float32))
    grid = Tensor((state.rand(1, 2, 3, 2) * 2.6 - 1.3).astype(np.float32))
    for mode in ("bilinear", "nearest"):
        expected = ops.grid_sample(x, grid, mode, padding_mode, align_corners).asnumpy()
        got = mint.nn.functional.grid_sample(x, grid, mode=mode, padding_mode=padding_mode,
                                             align_corners=align_corners).asnumpy()
        np.testing.assert_array_equal(got, expected)
