"""``tensor_array``: the one input check of nn's layers and losses (a Tensor in, its array out)."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.core.tensor import tensor_array


def test_returns_the_array_behind_the_tensor():
    array = tensor_array(ms.Tensor(np.arange(3, dtype=np.float32)), "x", "Dense")
    np.testing.assert_array_equal(np.asarray(array), [0.0, 1.0, 2.0])


@pytest.mark.parametrize("cell, call, message", [
    (nn.Dense(2, 3), lambda cell: cell(np.ones((1, 2), np.float32)),
     "For 'Dense', the input must be a Tensor, but got ndarray"),
    (nn.GroupNorm(2, 4), lambda cell: cell([1.0]), "For 'GroupNorm', the input must be a Tensor, but got list"),
    (nn.FocalLoss(), lambda cell: cell(np.ones((1, 2, 1)), ms.Tensor(np.zeros((1, 1, 1), np.int32))),
     "For 'FocalLoss', the 'logits' must be a Tensor, but got ndarray"),
])
def test_a_cell_names_itself_and_the_input_it_refused(cell, call, message):
    with pytest.raises(TypeError, match=message):
        call(cell)
