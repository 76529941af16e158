"""Top-level names added for API coverage: is_tensor, RNG state, algo parameters, mint.nn.SyncBatchNorm."""
import numpy as np
import pytest

import sporax as ms


def test_is_tensor():
    assert ms.is_tensor(ms.Tensor([1.0]))
    assert ms.is_tensor(ms.Parameter(ms.Tensor([1.0]), name="p"))
    assert not ms.is_tensor(np.ones(2)) and not ms.is_tensor(1.0)


def test_rng_state_round_trip():
    state = ms.get_rng_state()
    try:
        ms.manual_seed(123)
        assert ms.initial_seed() == 123
        seeded = [int(t.asnumpy()) for t in ms.get_rng_state()]
        ms.set_rng_state(state)
        assert [int(t.asnumpy()) for t in ms.get_rng_state()] == [int(t.asnumpy()) for t in state]
        assert seeded[0] == 123
    finally:
        ms.set_rng_state(state)


def test_algo_parameters_at_top_level():
    default = ms.get_algo_parameters("fully_use_devices")
    ms.set_algo_parameters(fully_use_devices=not default)
    try:
        assert ms.get_algo_parameters("fully_use_devices") is (not default)
    finally:
        ms.reset_algo_parameters()
    assert ms.get_algo_parameters("fully_use_devices") is default


def test_mint_sync_batch_norm_is_batch_norm_in_one_process():
    x = np.random.RandomState(0).rand(4, 2, 3).astype(np.float32)
    layer = ms.mint.nn.SyncBatchNorm(2, momentum=0.1)
    layer.set_train()
    out = layer(ms.Tensor(x)).asnumpy()
    mean = x.mean(axis=(0, 2), keepdims=True)
    var = x.var(axis=(0, 2), keepdims=True)
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(layer.running_mean.asnumpy(), 0.1 * mean.reshape(-1), rtol=1e-5)
    with pytest.raises(TypeError, match="SyncBatchNorm"):
        ms.mint.nn.SyncBatchNorm(2, process_group=3)


def test_sparse_tensor_is_a_coo_tensor():
    indices = np.array([[0, 1], [1, 2]], np.int32)
    t = ms.SparseTensor(ms.Tensor(indices), ms.Tensor([1.0, 2.0]), (3, 4))
    assert isinstance(t, ms.COOTensor) and t.shape == (3, 4)
    np.testing.assert_array_equal(t.indices.asnumpy(), indices)
    dense = np.zeros((3, 4), np.float32)
    dense[0, 1], dense[1, 2] = 1.0, 2.0
    np.testing.assert_array_equal(t.to_dense().asnumpy(), dense)


def test_frombuffer_and_current_device():
    data = np.arange(6, dtype=np.float32)
    tensor = ms.frombuffer(bytearray(data.tobytes()), ms.float32, count=3, offset=4)
    assert tensor.dtype == ms.float32
    np.testing.assert_array_equal(tensor.asnumpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(ms.frombuffer(data.tobytes(), ms.float32).asnumpy(), data)
    with pytest.raises(RuntimeError, match="multiple"):
        ms.frombuffer(bytes(7), ms.float32)
    with pytest.raises(RuntimeError, match="remain"):
        ms.frombuffer(bytes(8), ms.float32, count=3)
    device = ms.get_current_device()
    assert device == (ms.get_context("device_target"), ms.get_context("device_id"))
    assert device.device_target == device[0]
