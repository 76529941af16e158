"""A list changed in place and a dict's ``pop`` in compiled code, as MindSpore 2.10's graph gives them
(graph.control_flow.list_methods). Every expected value was printed by MindSpore 2.10 (CPU, ``ms.jit``)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor


def _x():
    return Tensor(np.array([1.0], np.float32))


def _int64(value, expected):
    assert isinstance(value, Tensor) and value.dtype == ms.int64 and value.shape == ()
    assert value.asnumpy().item() == expected


@pytest.mark.parametrize("change", ["insert", "extend", "pop", "reverse"])
def test_index_and_count_of_a_list_changed_in_place_are_int64_tensors(change):
    @ms.jit
    def look(x):
        l = [3, 1, 2]
        if change == "insert":
            l.insert(0, 9)
        elif change == "extend":
            l.extend([7])
        elif change == "pop":
            l.pop()
        else:
            l.reverse()
        return l.index(1), l.count(1)

    i, n = look(_x())
    # MindSpore 2.10: insert (Tensor 2, Tensor 1); extend, pop, reverse (Tensor 1, Tensor 1)
    _int64(i, 2 if change == "insert" else 1)
    _int64(n, 1)


def test_the_list_stays_run_time_through_append():
    @ms.jit
    def look(x):
        l = [3, 1, 2]
        l.insert(0, 9)
        l.append(1)
        return l.index(1), l.count(1), l

    i, n, l = look(_x())
    # MindSpore 2.10: (Tensor(shape=[], dtype=Int64, value= 2), Tensor(... value= 2)), [9, 3, 1, 2, 1]
    _int64(i, 2)
    _int64(n, 2)
    assert l == [9, 3, 1, 2, 1]


def test_index_and_count_of_a_constant_list_are_ints():
    @ms.jit
    def look(x):
        l = [3, 1, 2]
        l.append(4)
        m = [3, 1, 2]
        m[0] = 5
        k = [3, 1, 2]
        k.clear()
        k.append(1)
        return l.index(1), l.count(1), m.index(1), k.index(1), k.count(1)

    # MindSpore 2.10: (1, 1, 1, 0, 1), all int
    result = look(_x())
    assert result == (1, 1, 1, 0, 1) and all(type(v) is int for v in result)


@pytest.mark.parametrize("value, kind", [(1, "Int64"), (1.5, "Float32"), ("s", "String"), (True, "Bool")])
def test_popping_a_scalar_from_a_dict_raises_tuple_get_item_type_error(value, kind):
    @ms.jit
    def popped(x):
        d = {"a": value, "b": 2}
        v = d.pop("a")
        return v, d

    # MindSpore 2.10: TypeError "For 'TupleGetItem', input[0] should be Sequence, but got Int64." (Float32, ...)
    with pytest.raises(TypeError, match=f"For 'TupleGetItem', input\\[0\\] should be Sequence, but got {kind}\\."):
        popped(_x())


def test_popping_with_a_default_or_as_a_statement_raises_too():
    @ms.jit
    def with_default(x):
        d = {"a": 1, "b": 2}
        v = d.pop("c", 5)
        return v, d

    @ms.jit
    def statement(x):
        d = dict(a=1, b=2)
        d.pop("a")
        return d

    for function in (with_default, statement):
        # MindSpore 2.10: TypeError "For 'TupleGetItem', input[0] should be Sequence, but got Int64."
        with pytest.raises(TypeError, match="but got Int64"):
            function(_x())



def test_a_pop_whose_item_and_dict_nothing_reads_is_dropped():
    @ms.jit
    def dropped(x):
        d = {"a": 1, "b": 2}
        d.pop("a")
        return x

    # MindSpore 2.10: [1.] (no error: its graph drops the unread pop)
    assert dropped(_x()).asnumpy().tolist() == [1.0]


def test_a_pop_inside_an_expression_gives_the_item_and_leaves_the_dict():
    @ms.jit
    def returned(x):
        d = {"a": 1, "b": 2}
        return d.pop("a"), d

    @ms.jit
    def plus_zero(x):
        d = {"a": 1, "b": 2}
        v = d.pop("a") + 0
        return v

    @ms.jit
    def added(x):
        d = {"a": 1, "b": 2}
        return x + d.pop("a")

    @ms.jit
    def listed(x):
        d = {"a": 1, "b": 2}
        v = [d.pop("a")]
        return v, d

    # MindSpore 2.10: (1, {'a': 1, 'b': 2}), 1, [2.] and ([1], {'a': 1, 'b': 2})
    assert returned(_x()) == (1, {"a": 1, "b": 2})
    assert plus_zero(_x()) == 1
    assert added(_x()).asnumpy().tolist() == [2.0]
    assert listed(_x()) == ([1], {"a": 1, "b": 2})


def test_an_assigned_pop_nothing_reads_is_dropped():
    @ms.jit
    def unread(x):
        d = {"a": 1, "b": 2}
        v = d.pop("a")
        return x

    # MindSpore 2.10: [1.]
    assert unread(_x()).asnumpy().tolist() == [1.0]
