"""``set_context(check_bprop=True)``: a custom bprop's gradients are checked as MindSpore 2.10 checks them
(one per argument, each of its argument's shape and dtype); without it a wrong count is a RuntimeError.

Expected errors recorded from MindSpore 2.10 on CPU (GradOperation(get_all=True, sens_param=True) of a Cell
whose bprop returns the gradients below)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

X = np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], np.float32)


@pytest.fixture(autouse=True)
def restore_context():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE, check_bprop=False)


class _Returns(nn.Cell):
    def __init__(self, gradient):
        super().__init__()
        self.gradient = Tensor(gradient)

    def construct(self, x):
        return x * 2

    def bprop(self, x, out, dout):
        return (self.gradient * 3,)


class _OneForTwo(nn.Cell):
    def construct(self, x, y):
        return x * 2 + y

    def bprop(self, x, y, out, dout):
        return (dout,)


def _grad(net, *inputs):
    return ops.GradOperation(get_all=True, sens_param=True)(net)(*[Tensor(a) for a in inputs], Tensor(X))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_a_gradient_of_another_shape_raises_value_error(mode):
    ms.set_context(mode=mode, check_bprop=True)
    with pytest.raises(ValueError, match=r"the 0th return value\(gradient of the 0th argument\) should have the same "
                                         r"shape as the 0th argument, which is:\(2, 3\), but got: \(2, 2\)\."):
        _grad(_Returns(np.ones((2, 2), np.float32)), X)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_a_gradient_of_another_dtype_raises_type_error(mode):
    ms.set_context(mode=mode, check_bprop=True)
    with pytest.raises(TypeError, match="should have the same dtype as the 0th argument, which is:Float32, but got: "
                                        "Float16."):
        _grad(_Returns(np.ones((2, 3), np.float16)), X)


@pytest.mark.parametrize("mode, error", [(ms.PYNATIVE_MODE, TypeError), (ms.GRAPH_MODE, ValueError)])
def test_too_few_gradients_raise_type_error_in_pynative_and_value_error_in_graph_mode(mode, error):
    # a pinned PyNative/GRAPH_MODE difference of MindSpore 2.10
    ms.set_context(mode=mode, check_bprop=True)
    with pytest.raises(error, match="the number of return values\\(gradients\\) should be equal to the number of "
                                    "input arguments except 'out' and 'dout', which is: 2, but got:1"):
        _grad(_OneForTwo(), X, X)


def test_checked_gradients_of_the_right_shape_and_dtype_pass():
    # MindSpore 2.10: the gradient is bprop's value, 3 * [[1.1, 2.2, 3.3], [2.0, 3.0, 4.0]], float32
    gradient = np.array([[1.1, 2.2, 3.3], [2.0, 3.0, 4.0]], np.float32)
    ms.set_context(check_bprop=True)
    (result,) = _grad(_Returns(gradient), X)
    assert result.dtype == ms.float32
    np.testing.assert_array_equal(result.asnumpy(), gradient * 3)


def test_unchecked_gradients_are_cast_and_a_wrong_count_is_a_runtime_error():
    # MindSpore 2.10 (PyNative, check_bprop=False): a float16 gradient comes back float32; too few raise
    # RuntimeError ('Grad size should lager than forward inputs, but got 1 vs 2')
    (result,) = _grad(_Returns(np.ones((2, 3), np.float16)), X)
    assert result.dtype == ms.float32
    with pytest.raises(RuntimeError, match="but got 1 vs 2"):
        _grad(_OneForTwo(), X, X)
