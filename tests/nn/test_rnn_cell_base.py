"""RNNCellBase (mindspore.nn.layer.rnn_cells): the base libraries subclass to write their own recurrent cells."""
import numpy as np
import pytest

from sporax import nn, ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn import RNNCellBase


class ElmanCell(RNNCellBase):
    """A user cell written the way OCR libraries write theirs: only construct, on the base's weights."""

    def __init__(self, input_size, hidden_size):
        super().__init__(input_size, hidden_size, True, num_chunks=1)

    def construct(self, x, hx):
        return ops.tanh(ops.matmul(x, self.weight_ih.T) + self.bias_ih + ops.matmul(hx, self.weight_hh.T)
                        + self.bias_hh)


def test_parameters_shapes_and_initial_range():
    cell = RNNCellBase(3, 4, True, 2)
    # MindSpore 2.10: these four names, in this order; all within 1/sqrt(hidden_size).
    assert [p.name for p in cell.trainable_params()] == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]
    assert cell.weight_ih.shape == (8, 3) and cell.weight_hh.shape == (8, 4) and cell.bias_ih.shape == (8,)
    assert max(float(np.abs(p.asnumpy()).max()) for p in cell.get_parameters()) <= 0.5
    assert isinstance(cell, nn.Cell)


def test_without_bias_and_with_dtype():
    cell = RNNCellBase(3, 4, False, 3, dtype=mstype.float16)
    assert cell.bias_ih is None and cell.bias_hh is None
    assert [p.name for p in cell.get_parameters()] == ["weight_ih", "weight_hh"]
    assert cell.weight_ih.dtype == mstype.float16 and cell.weight_ih.shape == (12, 3)


def test_bad_arguments_raise_as_mindspore():
    with pytest.raises(TypeError, match="has_bias"):
        RNNCellBase(3, 4, 1, 3)
    with pytest.raises(ValueError, match="hidden_size"):
        RNNCellBase(3, 0, True, 3)
    with pytest.raises(ValueError, match="input_size"):
        RNNCellBase(0, 4, True, 3)


def test_subclass_step_matches_numpy():
    cell = ElmanCell(3, 2)
    rng = np.random.default_rng(0)
    values = {p.name: rng.standard_normal(p.shape).astype(np.float32) for p in cell.get_parameters()}
    for parameter in cell.get_parameters():
        parameter.set_data(Tensor(values[parameter.name]))
    x, h = rng.standard_normal((5, 3)).astype(np.float32), rng.standard_normal((5, 2)).astype(np.float32)
    expected = np.tanh(x @ values["weight_ih"].T + values["bias_ih"] + h @ values["weight_hh"].T + values["bias_hh"])
    # MindSpore's Float32 tanh is a rational approximation, up to 1e-4 from the exact one near +-5 (test_tanh_kernel)
    np.testing.assert_allclose(cell(Tensor(x), Tensor(h)).asnumpy(), expected, rtol=1e-4, atol=1e-6)


def test_the_recurrent_cells_share_the_base():
    assert issubclass(nn.GRUCell, RNNCellBase) and issubclass(nn.LSTMCell, RNNCellBase)
    assert nn.GRUCell(3, 4).weight_ih.shape == (12, 3)
