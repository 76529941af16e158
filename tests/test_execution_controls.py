"""swap_tensors, set_deterministic, set_recursion_limit and Tensor.index."""
import sys

import numpy as np
import pytest

import sporax as ms


def test_swap_tensors_keeps_identities():
    a, b = ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([3, 4, 5], np.int32))
    ids = id(a), id(b)
    ms.swap_tensors(a, b)
    assert (id(a), id(b)) == ids
    np.testing.assert_array_equal(a.asnumpy(), [3, 4, 5])
    assert a.dtype == ms.int32 and b.dtype == ms.float32
    np.testing.assert_array_equal((b * 2).asnumpy(), [2.0, 4.0])


def test_swap_tensors_refusals():
    with pytest.raises(RuntimeError, match="slots"):
        ms.swap_tensors(ms.Tensor([1.0]), ms.Parameter(ms.Tensor([2.0]), name="p"))
    with pytest.raises(TypeError, match="t2"):
        ms.swap_tensors(ms.Tensor([1.0]), np.ones(1))


def test_set_deterministic_and_recursion_limit():
    before = ms.get_context("deterministic")
    try:
        ms.set_deterministic(True)
        assert ms.get_context("deterministic") == "ON"
        ms.set_deterministic(False)
        assert ms.get_context("deterministic") == "OFF"
    finally:
        ms.set_context(deterministic=before)
    with pytest.raises(TypeError, match="deterministic"):
        ms.set_deterministic("ON")
    limit = sys.getrecursionlimit()
    ms.set_recursion_limit(10)
    assert sys.getrecursionlimit() == limit  # never lowered
    with pytest.raises(ValueError, match="positive"):
        ms.set_recursion_limit(0)


def test_tensor_index_is_advanced_indexing():
    x = np.arange(12).reshape(3, 4)
    t = ms.Tensor(x)
    rows, cols = np.array([2, 0]), np.array([1, 3])
    np.testing.assert_array_equal(t.index((ms.Tensor(rows), ms.Tensor(cols))).asnumpy(), x[rows, cols])
    np.testing.assert_array_equal(t.index([ms.Tensor(rows)]).asnumpy(), x[rows])
    np.testing.assert_array_equal(t.index((None, ms.Tensor(cols))).asnumpy(), x[:, cols])
    mask = np.array([True, False, True])
    np.testing.assert_array_equal(t.index((ms.Tensor(mask),)).asnumpy(), x[mask])
    with pytest.raises(TypeError, match="tuple of Tensor"):
        t.index(0)
    with pytest.raises(TypeError, match="pos 0"):
        t.index((0,))


def test_launch_blocking_makes_cpu_dispatch_synchronous(monkeypatch):
    import os

    import jax

    before = jax.config.values["jax_cpu_enable_async_dispatch"]
    monkeypatch.delenv("CUDA_LAUNCH_BLOCKING", raising=False)
    try:
        ms.launch_blocking()
        assert jax.config.values["jax_cpu_enable_async_dispatch"] is False
        assert os.environ.get("CUDA_LAUNCH_BLOCKING") in ("1", None)
        np.testing.assert_array_equal((ms.Tensor([1.0, 2.0]) * 2).asnumpy(), [2.0, 4.0])
    finally:
        jax.config.update("jax_cpu_enable_async_dispatch", before)


def test_run_check_reports_success(capsys):
    ms.run_check()
    out = capsys.readouterr().out
    assert "version" in out and "is correct" in out and "installed on platform [" in out
