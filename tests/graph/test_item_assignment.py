"""``y[i] = v`` in compiled code binds a new value to ``y`` only (graph.control_flow.item_assignment).

Every expected value was printed by MindSpore 2.10 (CPU, ``ms.jit``; GRAPH_MODE for the Cells) on the same code.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn
from tests.graph.test_in_place_arguments import graph_mode  # noqa: F401 - the GRAPH_MODE fixture


def _zeros():
    return Tensor(np.zeros(3, np.float32))


def test_setting_an_item_of_an_alias_of_an_input_tensor_changes_the_alias_only():
    @ms.jit
    def alias(x):
        y = x
        y[0] = 5
        return x, y

    x = _zeros()
    a, b = alias(x)
    assert a.asnumpy().tolist() == [0, 0, 0]
    assert b.asnumpy().tolist() == [5, 0, 0]
    assert x.asnumpy().tolist() == [0, 0, 0]


def test_setting_an_item_of_an_alias_of_a_local_tensor_changes_the_alias_only():
    @ms.jit
    def alias(x):
        y = x + 1
        z = y
        z[1] = 7
        w = y
        w[2] += 3
        return y, z, w

    y, z, w = alias(_zeros())
    assert y.asnumpy().tolist() == [1, 1, 1]
    assert z.asnumpy().tolist() == [1, 7, 1]
    assert w.asnumpy().tolist() == [1, 1, 4]


def test_setting_an_item_of_an_aliased_list_or_dict_changes_that_name_only():
    @ms.jit
    def containers(x):
        items = [x, 1, 2]
        other = items
        other[0] = 5
        d = {"a": 1}
        e = d
        e["a"] = 5
        e["c"] = 3
        return items[0], other, d["a"], e["a"], len(d), len(e)

    first, other, d_a, e_a, d_len, e_len = containers(_zeros())
    assert first.asnumpy().tolist() == [0, 0, 0]
    assert other == [5, 1, 2]
    assert (d_a, e_a, d_len, e_len) == (1, 5, 1, 2)


def test_nested_item_assignment_leaves_the_items_read_before():
    @ms.jit
    def nested(x):
        rows = [[1, 2], [3, 4]]
        same = rows
        same[0][1] = 9
        inner = rows[1]
        inner[0] = 8
        y = x + 1
        ys = [y]
        ys[0][0] = 9
        return rows, same, inner, y, ys[0]

    rows, same, inner, y, first = nested(_zeros())
    assert rows == [[1, 2], [3, 4]] and same == [[1, 9], [3, 4]] and inner == [8, 4]
    assert y.asnumpy().tolist() == [1, 1, 1]
    assert first.asnumpy().tolist() == [9, 1, 1]


def test_a_helpers_item_assignment_does_not_reach_the_caller():
    def set_first_list(items):
        items[0] = 5

    def set_first_tensor(t):
        t[0] = 5

    @ms.jit
    def caller(x):
        items = [1, 2, 3]
        set_first_list(items)
        y = x + 1
        set_first_tensor(y)
        return items, y

    items, y = caller(_zeros())
    assert items == [1, 2, 3]
    assert y.asnumpy().tolist() == [1, 1, 1]


def test_a_write_through_a_row_view_in_jit_leaves_the_root_as_mindspore_cpu():
    """PyNative/Graph difference: PyNative writes through the view (MindSpore 2.10 PyNative gives
    [[0, 5, 2], [3, 4, 5]]); its CPU jit returns ``y`` unchanged, and so does sporax's."""
    def write_into_a_row(x):
        y = x * 1
        row = y[0]
        row[1] = 5
        return y

    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert write_into_a_row(x).asnumpy().tolist() == [[0, 5, 2], [3, 4, 5]]
    assert ms.jit(write_into_a_row)(x).asnumpy().tolist() == [[0, 1, 2], [3, 4, 5]]


def test_item_assignment_in_a_tensor_branch_and_loop_gives_the_new_value():
    @ms.jit
    def branch_and_loop(x):
        y = x + 1
        z = y
        if x.sum() > -1:
            z[0] = 3
        i = 0
        while i < 3:
            z[i] = z[i] + i
            i += 1
        return y, z

    y, z = branch_and_loop(_zeros())
    assert y.asnumpy().tolist() == [1, 1, 1]
    assert z.asnumpy().tolist() == [3, 2, 3]


def test_several_item_targets_in_one_assignment():
    @ms.jit
    def pair(x):
        y = x + 1
        y[0], y[1] = 5, 6
        return y

    assert pair(_zeros()).asnumpy().tolist() == [5, 6, 1]


def test_a_parameter_item_assignment_writes_the_parameter(graph_mode):
    class SetFirst(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")

        def construct(self, x):
            w = self.p
            w[0] = 5
            return self.p + x

    net = SetFirst()
    assert net(_zeros()).asnumpy().tolist() == [5, 0, 0]
    assert net.p.asnumpy().tolist() == [5, 0, 0]


def test_a_tuple_item_assignment_raises_pythons_type_error():
    @ms.jit
    def tuple_item(x):
        t = (x, 1)
        t[0] = 3
        return t

    with pytest.raises(TypeError, match="'tuple' object does not support item assignment"):
        tuple_item(_zeros())


def test_append_clear_add_and_update_change_the_name_they_are_called_through_only():
    @ms.jit
    def methods(x):
        items = [2, 1]
        appended = items
        appended.append(3)
        cleared = items
        cleared.clear()
        added = items
        added += [5]
        d = {"a": 1}
        e = d
        e.update({"b": 2})
        return items, appended, cleared, added, d, e

    # MindSpore 2.10: ([2, 1], [2, 1, 3], [], [2, 1, 5], {'a': 1}, {'a': 1, 'b': 2})
    assert methods(_zeros()) == ([2, 1], [2, 1, 3], [], [2, 1, 5], {"a": 1}, {"a": 1, "b": 2})


def test_extend_insert_pop_and_reverse_change_the_list_every_name_holds():
    @ms.jit
    def shared(x):
        a = [2, 1]
        b = a
        b.extend([3])
        c = [2, 1]
        d = c
        d.insert(0, 3)
        e = [2, 1]
        f = e
        popped = f.pop()
        g = [2, 1]
        h = g
        h.reverse()
        return a, b, c, d, e, f, popped, g, h

    # MindSpore 2.10 (its in-place list operations)
    assert shared(_zeros()) == ([2, 1, 3], [2, 1, 3], [3, 2, 1], [3, 2, 1], [2], [2], 1, [1, 2], [1, 2])


def test_a_helpers_append_and_a_list_inside_another_keep_the_callers_items():
    def add_five(items):
        items.append(5)

    @ms.jit
    def caller(x):
        items = [1]
        add_five(items)
        inner = [1]
        outer = [inner, 2]
        inner.append(3)
        return items, outer

    # MindSpore 2.10: ([1], [[1], 2])
    assert caller(_zeros()) == ([1], [[1], 2])
