"""GroupTopk (MindSpore runs it on Ascend only): its settings' errors and its in-place write; values against NumPy
are the op table's."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

RAMP = Tensor(np.arange(1024, dtype=np.int32))


@pytest.mark.parametrize("settings, error, match", [
    ((3, 1), ValueError, "'group_num' must divide the 8 experts"),
    ((4, 5), ValueError, r"'k' must be in \[1, group_num=4\]"),
    ((4, 1, 3), ValueError, r"'k_inner' must be in \[1, 2\]"),
    ((4.0, 1), TypeError, "'group_num' must be an int"),
])
def test_group_topk_settings_are_checked(settings, error, match):
    with pytest.raises(error, match=match):
        ops.GroupTopk()(Tensor(np.ones((2, 8), np.float32)), RAMP, *settings)


def test_group_topk_writes_its_token_parameter_in_graph_mode():
    scores = np.array([[0.1, 0.9, 0.8, 0.7]], np.float32)  # sums of each group's two best: 1.0 and 1.5

    class Route(nn.Cell):
        def __init__(self):
            super().__init__()
            self.token = ms.Parameter(Tensor(scores), name="token")

        def construct(self):
            return ops.GroupTopk()(self.token, RAMP, 2, 1, 2)

    route = Route()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = route()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    expected = scores.copy()
    expected[0, :2] = 0
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(route.token.asnumpy(), expected)
