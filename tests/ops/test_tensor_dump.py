"""ops.TensorDump / ops.tensordump write {file}_{dtype}_{n}.npy as MindSpore 2.10 does."""
import os
import re

import numpy as np
import pytest

import sporax as ms
from sporax import ops
from sporax.core.tensor import Tensor


def _dumped(directory):
    files = sorted(os.listdir(directory), key=lambda name: int(re.search(r"_(\d+)\.npy$", name).group(1)))
    return [(re.sub(r"_\d+\.npy$", "", name), np.load(os.path.join(directory, name)).tolist()) for name in files]


def test_eager_and_compiled_dumps(tmp_path):
    data = Tensor(np.array([1.0, 2.0], np.float32))
    dump = ops.TensorDump()
    assert dump(str(tmp_path / "a"), data) is None
    ops.tensordump(str(tmp_path / "b.npy"), Tensor(np.array([3, 4], np.int32)))

    @ms.jit
    def function(value):
        dump(str(tmp_path / "c"), value + 1)
        return value * 2

    function(data)
    function(data * 3)
    assert _dumped(tmp_path) == [("a_float32", [1.0, 2.0]), ("b_int32", [3, 4]), ("c_float32", [2.0, 3.0]),
                                 ("c_float32", [4.0, 7.0])]


def test_dump_of_a_gradient_inside_a_backward_hook(tmp_path):
    def hook(gradient):
        ops.tensordump(str(tmp_path / "grad"), gradient)

    def function(value):
        value = value * 2
        value.register_hook(hook)
        return (value * value).sum()

    ms.grad(function)(Tensor(np.array([1.0, 2.0], np.float32)))
    assert _dumped(tmp_path) == [("grad_float32", [4.0, 8.0])]


def test_argument_errors(tmp_path):
    with pytest.raises(ValueError, match="input_output"):
        ops.TensorDump("sideways")
    with pytest.raises(TypeError, match="must be a Tensor"):
        ops.tensordump(str(tmp_path / "x"), [1.0])
    with pytest.raises(ValueError, match="does not exist"):
        ops.tensordump(str(tmp_path / "missing" / "x"), Tensor(np.ones(1, np.float32)))
