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
    with pytest.raises(ValueError, match="out_shape"):
        ops.Custom(multiply_add, func_type="pyfunc")
