"""ops.DumpGradient: the gradient flowing back into a tensor lands in a .npy file, in PyNative mode and under jit."""
import glob

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops


@pytest.mark.parametrize("compiled", [False, True], ids=["pynative", "jit"])
def test_dump_gradient_writes_the_incoming_gradient(tmp_path, compiled):
    stem = str(tmp_path / "x_dout.npy")

    def loss(x, y):
        return (ops.DumpGradient()(stem, x, "out") * y).sum()

    function = ms.jit(loss) if compiled else loss
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, -4.0], np.float32))
    grad_x, grad_y = ms.grad(function, grad_position=(0, 1))(x, y)
    np.testing.assert_array_equal(grad_x.asnumpy(), [3.0, -4.0])
    np.testing.assert_array_equal(grad_y.asnumpy(), [1.0, 2.0])
    (written,) = glob.glob(str(tmp_path / "x_dout_float32_*.npy"))
    np.testing.assert_array_equal(np.load(written), [3.0, -4.0])  # the gradient that reached x


def test_dump_gradient_checks_its_arguments():
    with pytest.raises(ValueError, match="input_output"):
        ops.DumpGradient()("g", Tensor(np.ones(1, np.float32)), "both")
    assert Tensor(np.ones(1, np.float32)).param_info is None
