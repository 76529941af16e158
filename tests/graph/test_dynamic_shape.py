"""``enable_dynamic``: declared dynamic dimensions, checked on every call."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor


def _dynamic():
    @ms.jit
    @ms.enable_dynamic(x=Tensor(shape=[None, 2], dtype=ms.float32), pair=[Tensor(shape=[None], dtype=ms.int32)])
    def function(x, pair, scale=2):
        return x * scale, pair[0] + 1

    return function


def test_calls_that_fit_run_for_any_size():
    function = _dynamic()
    for rows in (1, 3):
        out, counts = function(Tensor(np.ones((rows, 2), np.float32)), [Tensor(np.arange(rows, dtype=np.int32))])
        np.testing.assert_array_equal(out.asnumpy(), np.full((rows, 2), 2.0))
        np.testing.assert_array_equal(counts.asnumpy(), np.arange(rows) + 1)


@pytest.mark.parametrize("x, pair", [
    (np.ones((3, 3), np.float32), [np.arange(3, dtype=np.int32)]),   # fixed dimension differs
    (np.ones((3,), np.float32), [np.arange(3, dtype=np.int32)]),     # rank differs
    (np.ones((3, 2), np.float16), [np.arange(3, dtype=np.int32)]),   # dtype differs
])
def test_calls_that_do_not_fit_are_refused(x, pair):
    with pytest.raises(ValueError, match="declared by enable_dynamic"):
        _dynamic()(Tensor(x), [Tensor(p) for p in pair])


@pytest.mark.parametrize("kwargs, error, message", [
    ({}, ValueError, "cannot be empty"),
    ({"x": 3}, TypeError, "must be Tensor"),
    ({"x": Tensor(np.ones((2, 2), np.float32))}, TypeError, "at least have one None"),
])
def test_bad_declarations(kwargs, error, message):
    with pytest.raises(error, match=message):
        ms.enable_dynamic(**kwargs)


def test_bad_targets():
    decorator = ms.enable_dynamic(y=Tensor(shape=[None], dtype=ms.float32))
    with pytest.raises(ValueError, match="function or method"):
        decorator(3)
    with pytest.raises(ValueError, match="not arguments of"):
        decorator(lambda x: x)
