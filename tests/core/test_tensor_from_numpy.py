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
