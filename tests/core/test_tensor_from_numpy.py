"""``Tensor.from_numpy`` shares the array's memory where JAX allows it (CPU, aligned, contiguous, writable)."""
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


@pytest.mark.skipif(jax.default_backend() != "cpu", reason="JAX adopts host buffers only on its CPU backend")
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.bool_, np.float16])
def test_writes_to_an_aligned_array_show_in_the_tensor(dtype):
    array = _aligned((4, 3), dtype)
    array[...] = np.arange(12).reshape(4, 3).astype(dtype)
    tensor = Tensor.from_numpy(array)
    array[0, 0] = 1 if dtype is np.bool_ else 7
    assert tensor.asnumpy()[0, 0] == array[0, 0]
    assert (tensor + 0).asnumpy()[0, 0] == array[0, 0]  # ops read the shared buffer
    assert ms.from_numpy(array).asnumpy()[0, 0] == array[0, 0]


@pytest.mark.parametrize("make", [
    lambda: np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2],  # strided
    lambda: _aligned((5,), np.float32)[1:],  # off the alignment
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


def test_asnumpy_returns_a_copy_where_mindspore_shares_memory_difference():
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
