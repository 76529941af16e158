"""``Tensor.from_numpy`` shares the array's memory (CPU, contiguous, writable), as MindSpore 2.10 does."""
import copy

import jax
import numpy as np
import pytest

import sporax as ms
from sporax.core.tensor import Tensor


def _aligned(shape, dtype):
    """A C-contiguous array whose buffer starts on a 64-byte boundary (XLA's CPU alignment)."""
    dtype = np.dtype(dtype)
    size = int(np.prod(shape)) * dtype.itemsize
    raw = np.zeros(size + 64, np.uint8)
    offset = (-raw.ctypes.data) % 64
    return raw[offset:offset + size].view(dtype).reshape(shape)


_ON_CPU = pytest.mark.skipif(jax.default_backend() != "cpu", reason="a Tensor shares host memory on the CPU only")


@_ON_CPU
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "unaligned"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.bool_, np.float16])
def test_writes_to_the_array_show_in_the_tensor(dtype, offset):
    # Aligned or not (NumPy's allocator gives 64-byte alignment to about one array in four): MindSpore shares both.
    array = _aligned((13,), dtype)[offset:offset + 12].reshape(4, 3)
    array[...] = np.arange(12).reshape(4, 3).astype(dtype)
    tensor = Tensor.from_numpy(array)
    array[0, 0] = 1 if dtype is np.bool_ else 7
    assert tensor.asnumpy()[0, 0] == array[0, 0]
    assert (tensor + 0).asnumpy()[0, 0] == array[0, 0]  # ops read the shared buffer
    array[0, 1] = 0 if dtype is np.bool_ else 5
    assert (tensor * 1).asnumpy()[0, 1] == array[0, 1]  # and keep reading it
    assert ms.from_numpy(array).asnumpy()[0, 0] == array[0, 0]


@_ON_CPU
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "unaligned"])
def test_in_place_writes_reach_the_array_and_asnumpy_is_a_view(offset):
    # MindSpore 2.10 (CPU): t[0] = 8 then a[1] = 6 prints [8. 6. 1.]; ops.assign and copy_ give a [2. 2. 2.];
    # b = t.asnumpy() shares a's memory, and b[1] = 7 shows in a and t.
    array = _aligned((4,), np.float32)[offset:offset + 3]
    array[...] = 1
    tensor = Tensor.from_numpy(array)
    tensor[0] = 8
    array[1] = 6
    np.testing.assert_array_equal(tensor.asnumpy(), [8, 6, 1])
    np.testing.assert_array_equal(array, [8, 6, 1])
    view = tensor.asnumpy()
    assert np.shares_memory(view, array) and view.flags.writeable
    view[2] = 7
    np.testing.assert_array_equal(tensor.asnumpy(), [8, 6, 7])
    ms.ops.assign(tensor, Tensor(np.full(3, 2, np.float32)))
    np.testing.assert_array_equal(array, [2, 2, 2])
    tensor.copy_(Tensor(np.full(3, 3, np.float32)))
    np.testing.assert_array_equal(array, [3, 3, 3])


@_ON_CPU
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "unaligned"])
def test_views_of_the_tensor_share_the_array_too(offset):
    # MindSpore 2.10 (CPU): v = t[0]; v[1] = 5 writes a[0, 1]; r = t.reshape(3, 2); r[2, 1] = 9 writes a[1, 2];
    # then a[0, 0] = -1 shows in v ([-1. 5. 1.]) and r ([[-1, 5], [1, 1], [1, 9]]).
    array = _aligned((7,), np.float32)[offset:offset + 6].reshape(2, 3)
    array[...] = 1
    tensor = Tensor.from_numpy(array)
    row = tensor[0]
    row[1] = 5
    np.testing.assert_array_equal(array, [[1, 5, 1], [1, 1, 1]])
    reshaped = tensor.reshape(3, 2)
    reshaped[2, 1] = 9
    np.testing.assert_array_equal(array, [[1, 5, 1], [1, 1, 9]])
    array[0, 0] = -1
    np.testing.assert_array_equal(row.asnumpy(), [-1, 5, 1])
    np.testing.assert_array_equal(reshaped.asnumpy(), [[-1, 5], [1, 1], [1, 9]])
    np.testing.assert_array_equal(tensor[1].asnumpy(), [1, 1, 9])


@_ON_CPU
def test_assign_value_a_parameter_and_a_deep_copy_take_storage_of_their_own():
    # MindSpore 2.10: after t.assign_value(zeros) a stays [1. 1. 1.]; Parameter(Tensor.from_numpy(a)) keeps [1. 1. 1.]
    # when a[0] = 9 afterwards.
    array = np.ones(3, np.float32)
    tensor = Tensor.from_numpy(array)
    parameter = ms.Parameter(Tensor.from_numpy(array), name="w")
    copied = copy.deepcopy(tensor)
    tensor.assign_value(Tensor(np.zeros(3, np.float32)))
    array[0] = 9
    np.testing.assert_array_equal(tensor.asnumpy(), [0, 0, 0])
    np.testing.assert_array_equal(parameter.asnumpy(), [1, 1, 1])
    np.testing.assert_array_equal(copied.asnumpy(), [1, 1, 1])


@_ON_CPU
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "unaligned"])
def test_a_compiled_function_reads_the_array_at_each_call(offset):
    # MindSpore 2.10: jit f(x) = x * 2 gives [2. 2. 2.], then after a[0] = 3, [6. 2. 2.].
    array = _aligned((4,), np.float32)[offset:offset + 3]
    array[...] = 1
    tensor = Tensor.from_numpy(array)
    double = ms.jit(lambda x: x * 2)
    np.testing.assert_array_equal(double(tensor).asnumpy(), [2, 2, 2])
    array[0] = 3
    np.testing.assert_array_equal(double(tensor).asnumpy(), [6, 2, 2])
    assert repr(tensor) == "Tensor(shape=[3], dtype=Float32, value= [3., 1., 1.])"  # NumPy's layout, as MindSpore


@pytest.mark.parametrize("make", [
    lambda: np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2],  # strided
    lambda: np.frombuffer(bytes(16), np.float32),  # read-only
])
def test_other_arrays_are_copied_with_their_values(make):
    array = make()
    tensor = Tensor.from_numpy(array)
    expected = array.copy()
    if array.flags.writeable:
        array[...] = 9
    np.testing.assert_array_equal(tensor.asnumpy(), expected)
    assert tensor.dtype == ms.float32


def test_an_update_of_the_tensor_does_not_reach_the_array():
    array = _aligned((4,), np.float32)
    tensor = Tensor.from_numpy(array)
    tensor += 1
    np.testing.assert_array_equal(tensor.asnumpy(), [1, 1, 1, 1])
    np.testing.assert_array_equal(array, [0, 0, 0, 0])


def test_asnumpy_of_other_tensors_returns_a_copy_where_mindspore_shares_memory_difference():
    # Named difference. MindSpore 2.10 (CPU, /tmp/semantics22-x/share.py): asnumpy() returns a writable view of the
    # Tensor's memory (owndata False): writing a[0] = 10 gives the Tensor (and a Parameter, and later ops) 10.
    # sporax's values are immutable jax.Arrays, rebound rather than written in place: a Parameter's buffer is
    # donated to each compiled step, which a live view of it would silently block (a copy per step) while the view
    # kept showing the old step's values; other Tensors, compiled constants and pending results may share the
    # buffer. So asnumpy() copies, and writes to the copy stay in NumPy.
    tensor = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    parameter = ms.Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="p")
    for owner in (tensor, parameter):
        array = owner.asnumpy()
        assert array.flags.writeable and array.flags.owndata
        array[0] = 10
        assert owner.asnumpy()[0] == 1.0 and (owner * 1).asnumpy()[0] == 1.0
