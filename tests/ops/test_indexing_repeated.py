"""Eager ``x[index]`` read again and again: from its second read an index structure runs as one compiled read
(``sporax.ops.indexing._take``); every read gives NumPy's selection, and basic reads stay views."""
import numpy as np
import pytest

from sporax import Tensor

DATA = np.arange(60, dtype=np.float32).reshape(3, 4, 5) * 0.5 - 7.25
INDICES = {
    "leading int": lambda t: (1,),
    "leading negative int": lambda t: (-3,),
    "int tensor": lambda t: (t(np.array([2, 0, 2], np.int32)),),
    "negative int tensor": lambda t: (t(np.array([-1, -3], np.int64)),),
    "2-d int tensor": lambda t: (t(np.array([[0, 1], [2, 2]], np.int32)),),
    "slice on axis 1": lambda t: (slice(None), slice(1, 3)),
    "ellipsis then int": lambda t: (Ellipsis, 0),
    "two ints": lambda t: (0, -2),
    "three negative ints": lambda t: (-1, -4, -5),
    "new axis then int": lambda t: (None, 1),
    "tensor then int": lambda t: (t(np.array([1, 0], np.int32)), 3),
    "int, slice, tensor": lambda t: (1, slice(None), t(np.array([4, 0], np.int32))),
    "tensors apart": lambda t: (t(np.array([0, 2], np.int32)), slice(None), t(np.array([1, 3], np.int32))),
    "reversed axis 2": lambda t: (slice(None), slice(None), slice(None, None, -1)),
    "stepped slices": lambda t: (slice(None), slice(0, 4, 2), slice(1, None, 3)),
}


def _numpy_index(parts):
    return tuple(np.asarray(item.asnumpy()) if isinstance(item, Tensor) else item for item in parts)


@pytest.mark.parametrize("name", sorted(INDICES))
def test_repeated_reads_equal_numpy(name):
    x = Tensor(DATA)
    parts = INDICES[name](Tensor)
    expected = DATA[_numpy_index(parts)]
    for _ in range(3):  # the first read runs jnp eagerly, the later ones the compiled read
        got = x[parts if len(parts) != 1 else parts[0]].asnumpy()
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)


def test_int_read_in_a_loop_and_views_of_compiled_reads():
    x = Tensor(DATA.copy())
    np.testing.assert_array_equal([x[i, 0, 1].asnumpy() for i in range(3)] * 2, [DATA[i, 0, 1] for i in range(3)] * 2)
    for count in range(3):
        column = x[:, 1]
        column[0, 2] = 100.0 + count  # a basic read is a view of x's storage, compiled or not
        assert x[0, 1, 2].asnumpy() == 100.0 + count
        row = x[2]
        row[3, 4] = -count
        assert x[2, 3, 4].asnumpy() == -count
    for index in ((0, 4), 3, -4):
        with pytest.raises(IndexError, match="out of bounds"):
            x[index]
