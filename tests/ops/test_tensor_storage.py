"""Tensor's storage, device and bookkeeping methods (storage, set_, offload, delete_, pin_memory, to_, remove_hook,
const_arg ...) and Parameter.add_pipeline_stage, as MindSpore 2.10 documents them."""
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor


def _t(values, dtype=np.float32):
    return Tensor(np.asarray(values, dtype))


def test_storage_reports_the_bytes_and_copies_raw_bytes():
    x = _t([1.0, 2.0, 3.0])
    storage = x.untyped_storage()
    assert (storage.nbytes(), storage.size(), storage.element_size(), storage.dtype) == (12, 12, 1, ms.float32)
    assert storage.data_ptr() != 0 and not storage.is_shared()
    target = Tensor(np.zeros(3, np.int32))
    target.storage().copy_(storage)
    np.testing.assert_array_equal(target.asnumpy(), np.array([1.0, 2.0, 3.0], np.float32).view(np.int32))
    with pytest.raises(RuntimeError, match="bytes"):
        Tensor(np.zeros(2, np.int32)).storage().copy_(storage)


def test_set_takes_the_values_or_a_strided_view_of_the_source():
    source = np.arange(12, dtype=np.float32)
    x = _t([0.0])
    assert x.set_(Tensor(source)) is x
    np.testing.assert_array_equal(x.asnumpy(), source)
    x.set_(Tensor(source), 1, (2, 3), (6, 2))
    np.testing.assert_array_equal(x.asnumpy(), np.lib.stride_tricks.as_strided(source[1:], (2, 3), (24, 8)))
    assert x.set_().shape == (0,)
    with pytest.raises(ValueError, match="outside"):
        x.set_(Tensor(source), 10, (3,), (1,))


def test_offload_writes_the_file_and_reads_it_back_on_use(tmp_path):
    x = _t([[1.5, -2.0]])
    path = str(tmp_path / "x.npy")
    assert x.offload(path) is True and x.offload_file_path() == path
    assert x._array is None  # the device buffer is gone
    np.testing.assert_array_equal(np.load(path), [[1.5, -2.0]])
    np.testing.assert_array_equal((x * 2).asnumpy(), [[3.0, -4.0]])
    assert _t([1.0]).offload_file_path() == ""
    assert not os.path.exists(path + ".partial")


def test_delete_releases_the_values_and_a_later_read_says_why():
    x = _t([1.0, 2.0])
    x.delete_()
    assert x.shape == (2,)
    with pytest.raises(RuntimeError, match="delete_"):
        x.asnumpy()


def test_pin_memory_to_and_wait_pipeline_keep_the_values():
    x = _t([1.0, 2.0])
    pinned = x.pin_memory()
    assert pinned is not x
    np.testing.assert_array_equal(pinned.asnumpy(), [1.0, 2.0])
    assert x.to_("CPU") is x and x.to_("Ascend") is x
    assert x.wait_pipeline() is None and x.flush_from_cache() is None
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])


def test_remove_hook_by_handle_id_stops_the_hook():
    x = Parameter(_t([1.0, 2.0]), name="x")
    handle = x.register_hook(lambda grad: grad * 10)
    grad = ms.grad(lambda t: (t * t).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), [20.0, 40.0])
    assert Tensor.remove_hook(handle.id) is True and Tensor.remove_hook(handle.id) is False
    grad = ms.grad(lambda t: (t * t).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), [2.0, 4.0])


def test_bookkeeping_flags():
    x = _t([1.0])
    assert (x.const_arg, x.init_flag, x.virtual_flag, x.init_finished) == (False, False, False, True)
    assert x.set_const_arg() is x and x.const_arg is True
    x.set_init_flag(True)
    assert x.init_flag and x.is_init()
    assert x.parent_tensor_ is None and x.index_of_parent_ is None and x.symbolic_shape is None
    assert _t([2.0]).const_arg is False  # flags belong to one tensor
    with pytest.raises(TypeError, match="const_arg"):
        x.set_const_arg("yes")


def test_op_methods_and_reflected_equality():
    probabilities = _t([[0.0, 0.0, 1.0]])
    assert _all(probabilities.multinomial(4).asnumpy() == 2)
    assert _all(_t([[-1e9, -1e9, 0.0]]).random_categorical(3).asnumpy() == 2)  # logits
    y, idx = Tensor(np.array([4, 4, 1], np.int32)).unique_with_pad(-1)
    assert y.asnumpy().tolist() == [4, 1, -1] and idx.asnumpy().tolist() == [0, 0, 1]
    assert _t([1.0, 2.0]).__req__(_t([1.0, 3.0])).asnumpy().tolist() == [True, False]
    x = _t([0.0, 0.0])
    assert x.assign_value_cpp(_t([5.0, 6.0])) is x and x.asnumpy().tolist() == [5.0, 6.0]


def _all(values):
    return bool(np.all(values))


def test_parameter_add_pipeline_stage_records_the_stages():
    weight = Parameter(_t([1.0]), name="w")
    weight.add_pipeline_stage(0)
    weight.add_pipeline_stage(2)
    assert weight.pipeline_stages == [0, 2]
    with pytest.raises(TypeError, match="stage"):
        weight.add_pipeline_stage(-1)
