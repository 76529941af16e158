"""Module globals in compiled code (sporax.graph.control_flow.module_globals), against values recorded from
MindSpore 2.10 (ms.jit functions and GRAPH_MODE Cells gave the same; PyNative is plain Python):
``global h`` then ``h = ...`` changes nothing, ``h += x`` on a global Tensor (declared or not) updates that
Tensor object in place at every call, ``z += x`` on an undeclared global number, list or tuple binds a local."""
import warnings

import numpy as np
import pytest
import sporax as ms
from sporax import Tensor, context, nn

ONES = np.array([1.0, 1.0], np.float32)
z = t = h = n = items = pair = None


@pytest.fixture(autouse=True)
def fresh_globals():
    global z, t, h, n, items, pair
    z, t, h = (Tensor(np.array([1.0, 2.0], np.float32)) for _ in range(3))
    n, items, pair = 3, [1, 2], (1, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the eager fallback of an in-place global update warns once
        yield
    context.set_context(mode=context.PYNATIVE_MODE)


def undeclared_tensor_update(x):
    z += x  # noqa: F821 - MindSpore's graph reads the global here
    z -= x * 3  # noqa: F821
    return z


def undeclared_rebinding(x):
    t = t + x  # noqa: F821
    n += 1  # noqa: F821
    items += [3]  # noqa: F821
    pair += (3,)  # noqa: F821
    return t, n, items, pair


def declared_stores(x):
    global h, n, items
    h = h + x
    n = n + 1
    items = items + [3]
    return h, n, items


def declared_changes(x):
    global n, items, pair, created
    n += 1
    items.append(x)
    items += [3]
    pair += (3,)
    created = x
    return n, len(items), pair


def declared_tensor_update(x):
    global h
    h += x
    h *= x + 1
    h = h * 10  # dropped: the in-place updates stay
    return h


def branch_and_loop(x):
    global n, h
    if (x > 0).all():
        n = 5
        h += x
    else:
        h -= x
    for n in range(3):  # a loop target binds a local that starts as the global
        x = x + n
    return x, n, h


def nested_declaration(x):
    def inner():
        global n
        n = 10
        return n
    doubled = [n * 2 for n in range(3)]  # the comprehension's own n
    return x + inner(), doubled


class Cell(nn.Cell):
    def __init__(self, function):
        super().__init__()
        self.function = function

    def construct(self, x):
        return self.function(x)


def _compiled(kind, function):
    if kind == "jit":
        return ms.jit(function)
    context.set_context(mode=context.GRAPH_MODE)
    return Cell(function)


@pytest.mark.parametrize("kind", ["jit", "graph_cell"])
def test_undeclared_tensor_augmented_assignment_updates_the_global_in_place(kind):
    alias = z
    call = _compiled(kind, undeclared_tensor_update)
    first = call(Tensor(ONES))
    np.testing.assert_array_equal(first.asnumpy(), [-1.0, 0.0])
    second = call(Tensor(ONES))
    np.testing.assert_array_equal(second.asnumpy(), [-3.0, -2.0])
    np.testing.assert_array_equal(z.asnumpy(), [-3.0, -2.0])
    assert alias is z  # the same Tensor object, changed in place


@pytest.mark.parametrize("kind", ["jit", "graph_cell"])
def test_undeclared_rebinding_leaves_the_globals(kind):
    call = _compiled(kind, undeclared_rebinding)
    for _ in range(2):
        out_t, out_n, out_items, out_pair = call(Tensor(ONES))
        np.testing.assert_array_equal(out_t.asnumpy(), [2.0, 3.0])
        assert (out_n, out_items, out_pair) == (4, [1, 2, 3], (1, 2, 3))
    np.testing.assert_array_equal(t.asnumpy(), [1.0, 2.0])
    assert (n, items, pair) == (3, [1, 2], (1, 2))


@pytest.mark.parametrize("kind", ["jit", "graph_cell"])
def test_declared_global_stores_are_dropped(kind):
    call = _compiled(kind, declared_stores)
    for _ in range(2):
        out_h, out_n, out_items = call(Tensor(ONES))
        np.testing.assert_array_equal(out_h.asnumpy(), [1.0, 2.0])
        assert (out_n, out_items) == (3, [1, 2])
    np.testing.assert_array_equal(h.asnumpy(), [1.0, 2.0])
    assert (n, items) == (3, [1, 2])


@pytest.mark.parametrize("kind", ["jit", "graph_cell"])
def test_declared_global_changes_are_dropped(kind):
    call = _compiled(kind, declared_changes)
    assert call(Tensor(ONES)) == (3, 2, (1, 2))
    assert (n, items, pair) == (3, [1, 2], (1, 2))
    assert "created" not in globals()


@pytest.mark.parametrize("kind", ["jit", "graph_cell"])
def test_declared_global_tensor_augmented_assignment_is_in_place(kind):
    call = _compiled(kind, declared_tensor_update)
    np.testing.assert_array_equal(call(Tensor(ONES)).asnumpy(), [4.0, 6.0])
    np.testing.assert_array_equal(call(Tensor(ONES)).asnumpy(), [10.0, 14.0])
    np.testing.assert_array_equal(h.asnumpy(), [10.0, 14.0])


def test_declared_global_in_a_tensor_branch_and_as_a_loop_target():
    call = ms.jit(branch_and_loop)
    out_x, out_n, out_h = call(Tensor(ONES))
    np.testing.assert_array_equal(out_x.asnumpy(), [4.0, 4.0])
    np.testing.assert_array_equal(out_h.asnumpy(), [2.0, 3.0])
    out_x, out_n, out_h = call(Tensor(np.array([-1.0, 1.0], np.float32)))
    np.testing.assert_array_equal(out_x.asnumpy(), [2.0, 4.0])
    np.testing.assert_array_equal(h.asnumpy(), [3.0, 2.0])
    assert out_n == 2 and n == 3


def test_a_nested_function_declaring_a_global_drops_its_stores():
    out, doubled = ms.jit(nested_declaration)(Tensor(ONES))
    np.testing.assert_array_equal(out.asnumpy(), [4.0, 4.0])
    assert doubled == [0, 2, 4] and n == 3


def test_pynative_undeclared_augmented_assignment_raises_unbound_local_error():
    """The PyNative/graph difference: plain Python has no global to read there."""
    with pytest.raises(UnboundLocalError):
        undeclared_tensor_update(Tensor(ONES))
    with pytest.raises(UnboundLocalError):
        Cell(undeclared_rebinding)(Tensor(ONES))


def test_pynative_declared_globals_are_rebound():
    """The PyNative/graph difference: Python's ``global`` rebinds the module's names."""
    out_h, out_n, out_items = Cell(declared_stores)(Tensor(ONES))
    np.testing.assert_array_equal(out_h.asnumpy(), [2.0, 3.0])
    assert (out_n, out_items) == (4, [1, 2, 3]) and (n, items) == (4, [1, 2, 3])
    np.testing.assert_array_equal(h.asnumpy(), [2.0, 3.0])
    assert declared_changes(Tensor(ONES))[:2] == (5, 5)
    assert "created" in globals()
    del globals()["created"]
