"""ops.Custom(func_type='pyfunc') against MindSpore 2.10 (tests/fixtures/api/custom.npz), eager and under jit."""
import os
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import ops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "api"))
from record_custom import X, Y, build, multiply_add, run  # noqa: E402  (mindspore only when run as a script)

ORACLE = np.load(os.path.join(HERE, "..", "fixtures", "api", "custom.npz"))


def test_matches_oracle():
    got = run(ms, ops)
    for key in ORACLE:
        np.testing.assert_allclose(got[key], ORACLE[key], rtol=1e-6, err_msg=key)


def test_under_jit():
    custom = build(ms, ops)["grad"]

    @ms.jit
    def step(x, y):
        return custom(x, y) * 2

    np.testing.assert_allclose(step(ms.Tensor(X), ms.Tensor(Y)).asnumpy(), ORACLE["mul"] * 2, rtol=1e-6)


def test_errors():
    with pytest.raises(NotImplementedError, match="func_type='aot'"):
        ops.Custom("./kernel.so:add", out_shape=[2], out_dtype=ms.float32, func_type="aot")
    plain = build(ms, ops)["mul"]
    with pytest.raises(TypeError, match="no bprop"):
        ms.grad(lambda a: plain(a, ms.Tensor(Y)).sum())(ms.Tensor(X))
    # re-recorded on MindSpore 2.10 CPU: a pyfunc without out_shape/out_dtype constructs (func_type 'pyfunc')
    # and its call raises TypeError, 'out_shape' checked first
    missing_shape = ops.Custom(multiply_add, func_type="pyfunc")
    assert missing_shape.func_type == "pyfunc"
    with pytest.raises(TypeError, match=r"^For 'Custom', 'func_type': pyfunc, 'func': <function multiply_add at .*>, "
                                        r"'out_shape' must be one of \[tuple, list, function\], but got <class 'NoneType'>$"):
        missing_shape(ms.Tensor(X), ms.Tensor(Y))
    with pytest.raises(TypeError, match=r"'out_shape' must be one of .* but got <class 'NoneType'>$"):
        ops.Custom(multiply_add, out_dtype=ms.float32)(ms.Tensor(X), ms.Tensor(Y))
    with pytest.raises(TypeError, match=r"'out_dtype' must be one of \[mindspore.dtype, tuple, list, function\], "
                                        r"but got <class 'NoneType'>$"):
        ops.Custom(multiply_add, out_shape=lambda a, b: a)(ms.Tensor(X), ms.Tensor(Y))
    # an out_shape function that returns None is the same error (a pyfunc's shape is never inferred)
    with pytest.raises(TypeError, match="'out_shape' must be one of"):
        ops.Custom(multiply_add, out_shape=lambda a, b: None, out_dtype=lambda a, b: a)(ms.Tensor(X), ms.Tensor(Y))


def test_kernel_function_as_default_pyfunc():
    """A function decorated by ops.kernel given without func_type is a pyfunc (MindSpore 2.10's default), so
    without out_shape its call is the TypeError the hybrid-kernel docs page gets on MindSpore 2.10 CPU."""
    @ops.kernel
    def add(a, b):
        c = output_tensor(a.shape, a.dtype)  # noqa: F821 - a Hybrid DSL keyword
        for i0 in range(a.shape[0]):
            c[i0] = a[i0] + b[i0]
        return c

    with pytest.raises(TypeError, match="'func_type': pyfunc, 'func': <function .*add at .*'out_shape' must be"):
        ops.Custom(add)(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))
    # with the shapes given it runs as a NumPy function: [4. 6.] recorded on MindSpore 2.10 CPU
    summed = ops.Custom(add, out_shape=lambda x, _: x, out_dtype=lambda x, _: x)(ms.Tensor([1.0, 2.0]),
                                                                                ms.Tensor([3.0, 4.0]))
    np.testing.assert_array_equal(summed.asnumpy(), np.array([4.0, 6.0], np.float32))
