"""``a, b = value`` in compiled code reads the first items and drops the rest, as MindSpore 2.10's graph does
(graph.control_flow.item_assignment.unpack). PyNative raises Python's ValueError.

Every value and error below was printed by MindSpore 2.10 (CPU, ``ms.jit``).
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor


def _ones(*shape):
    return Tensor(np.ones(shape or (3,), np.float32))


def test_a_longer_tuple_or_list_unpacks_its_first_items_in_jit_only():
    def extra(x):
        a, b = (1, 2, 3)
        c, d = [x, x, x]
        (e, f), g = (4, 5, 6), 7
        h, i = "abc"
        return a, b, c, d, e, f, g, h, i

    with pytest.raises(ValueError, match="too many values to unpack"):
        extra(_ones())
    a, b, c, d, e, f, g, h, i = ms.jit(extra)(_ones())
    assert (a, b, e, f, g, h, i) == (1, 2, 4, 5, 7, "a", "b")
    assert c.asnumpy().tolist() == d.asnumpy().tolist() == [1, 1, 1]


def test_a_tensor_with_more_rows_unpacks_its_first_rows():
    @ms.jit
    def rows(x):
        a, b = x
        first, second = x.shape + (4,)
        return a, b, first, second

    a, b, first, second = rows(Tensor(np.arange(3, dtype=np.float32)))
    assert (a.asnumpy().item(), b.asnumpy().item(), first, second) == (0.0, 1.0, 3, 4)


def test_fewer_values_raise_mindspores_index_error():
    @ms.jit
    def short_tuple(x):
        a, b, c = (1, 2)
        return a

    @ms.jit
    def short_list(x):
        a, b, c = [1, 2]
        return a

    @ms.jit
    def short_tensor(x):
        a, b, c, d = x
        return a

    with pytest.raises(IndexError, match=r"^TupleGetItem evaluator index should be in range\[-2, 2\), but got 2\."):
        short_tuple(_ones())
    with pytest.raises(IndexError, match=r"^list_getitem evaluator index should be in range\[-2, 2\), but got 2\."):
        short_list(_ones())
    with pytest.raises(IndexError, match=r"^For 'StridedSlice', the 'strides\[0\]' cannot be negative number and "
                                         r"'begin\[0\]' must be in \[-3, 3\)"):
        short_tensor(_ones())


def test_unpacking_a_dict_or_a_number_raises_the_item_reads_error():
    @ms.jit
    def from_dict(x):
        a, b = {"p": 1, "q": 2, "r": 3}
        return a

    @ms.jit
    def from_int(x):
        a, b = 5
        return a

    with pytest.raises(ValueError, match=r"^The key 0 does not exist in the dict:\{'p': 1, 'q': 2, 'r': 3\}"):
        from_dict(_ones())
    with pytest.raises(TypeError, match="'int' object is not subscriptable"):
        from_int(_ones())


def test_starred_and_exact_unpacking_keep_pythons_meaning():
    @ms.jit
    def exact(x):
        a, *b = (1, 2, 3)
        c = d = (1, 2)
        e, f = c
        return a, b, e, f, d

    assert exact(_ones()) == (1, [2, 3], 1, 2, (1, 2))


def test_a_for_loops_tuple_target_takes_the_first_items_too():
    def loop(x):
        s = 0
        for a, b in [(1, 2, 3), (4, 5, 6)]:
            s = s + a + b
        return s

    def rows(x):
        out = 0
        for a, b in zip(x, x):
            out = out + a * b
        for i, (p, q) in enumerate(((1, 2), (3, 4))):
            out = out + i * p * q
        return out

    with pytest.raises(ValueError, match="too many values to unpack"):
        loop(_ones())
    # MindSpore 2.10: 12 and 17.0
    assert ms.jit(loop)(_ones()) == 12
    assert ms.jit(rows)(Tensor(np.array([1.0, 2.0], np.float32))) == 17.0


def test_a_for_loop_over_a_tensors_rows_unpacks_each_row():
    @ms.jit
    def pairs(x):
        s = x[0] * 0
        for a, b in x:
            s = s + a * b
        return s

    # MindSpore 2.10: [26. 26.]
    assert pairs(Tensor(np.arange(6).reshape(3, 2).astype(np.float32))).asnumpy().tolist() == [26, 26]
