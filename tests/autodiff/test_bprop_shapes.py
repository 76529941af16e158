"""A custom bprop's gradient in another shape than its input (oracle: tests/fixtures/autodiff/bprop_shapes.json,
recorded from MindSpore 2.10 by record_bprop_shapes.py): summed over the axes the input was broadcast
along, cast to the input's dtype; a gradient that would itself need broadcasting is refused."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor, nn, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "autodiff", "bprop_shapes.json")

GRADIENTS = {
    "ones_3x2": lambda: Tensor(np.ones((3, 2), np.float32)),
    "arange_3x2": lambda: Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)),
    "float64_2x2": lambda: Tensor(np.ones((2, 2), np.float64)),
    "ones_1x2": lambda: Tensor(np.ones((1, 2), np.float32)),
    "shape_1": lambda: Tensor(np.array([5.0], np.float32)),
    "shape_3": lambda: Tensor(np.ones((3,), np.float32)),
    "scalar_tensor": lambda: Tensor(np.float32(3.0)),
    "python_zero": lambda: 0,
}


def _expected():
    with open(FIXTURE) as handle:
        return json.load(handle)


@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_bprop_gradient_shape(name):
    expected = _expected()[name]
    make_gradient = GRADIENTS[name]

    class Doubler(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (make_gradient(),)

    x = Tensor(np.array([1.0, 2.0], np.float32))
    grad_all = ops.GradOperation(get_all=True)(Doubler())
    if "error" in expected:
        with pytest.raises(RuntimeError, match="grad tensor should be broadcast to expected shape"):
            grad_all(x)
        return
    grad = grad_all(x)[0]
    assert grad.asnumpy().tolist() == expected["value"]
    assert str(grad.dtype) == expected["dtype"]
