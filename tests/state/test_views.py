"""PyNative views share storage with their base (sporax.state.views).

Expected values recorded on MindSpore 2.10 (CPU, PyNative) with base ``arange(6).reshape(2, 1, 3)``
(or ``(2, 3)``): ``a[0] = 7`` then reading the view, and ``v[0] = 50`` then reading the base.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, mint, nn, ops
from sporax.state.assign import rebind

BASE_213 = np.arange(6, dtype=np.float32).reshape(2, 1, 3)

# name: (view of the (2, 1, 3) base, the view's values after a[0] = 7, the base's after v[0] = 50)
RECORDED = {
    "squeeze": (lambda a: a.squeeze(1), [7, 7, 7, 3, 4, 5], [50, 50, 50, 3, 4, 5]),
    "permute": (lambda a: a.permute(2, 1, 0), [7, 3, 7, 4, 7, 5], [50, 1, 2, 50, 4, 5]),
    "swapaxes": (lambda a: a.swapaxes(0, 2), [7, 3, 7, 4, 7, 5], [50, 1, 2, 50, 4, 5]),
    "chunk": (lambda a: a.chunk(2, 0)[0], [7, 7, 7], [50, 50, 50, 3, 4, 5]),
    "unbind": (lambda a: a.unbind(0)[1], [3, 4, 5], [0, 1, 2, 50, 50, 50]),
    "movedim": (lambda a: a.movedim(0, 2), [7, 3, 7, 4, 7, 5], [50] * 6),
    "ops.reshape": (lambda a: ops.reshape(a, (3, 2)), [7, 7, 7, 3, 4, 5], [50, 50, 2, 3, 4, 5]),
    "Reshape": (lambda a: ops.Reshape()(a, (3, 2)), [7, 7, 7, 3, 4, 5], [50, 50, 2, 3, 4, 5]),
    "mint.flatten": (lambda a: mint.flatten(a), [7, 7, 7, 3, 4, 5], [50, 1, 2, 3, 4, 5]),
    "narrow": (lambda a: ops.narrow(a, 2, 1, 2), [7, 7, 4, 5], [0, 50, 50, 3, 4, 5]),
    "tuple index": (lambda a: a[1, :, 0:2], [3, 4], [0, 1, 2, 50, 50, 5]),
    "ellipsis": (lambda a: a[..., 1], [7, 4], [0, 50, 2, 3, 4, 5]),
    "None index": (lambda a: a[None, 0], [7, 7, 7], [50, 50, 50, 3, 4, 5]),
    "strided slice": (lambda a: a[:, :, ::2], [7, 7, 3, 5], [50, 1, 50, 3, 4, 5]),
    "broadcast_to": (lambda a: ops.broadcast_to(a, (2, 2, 2, 3)),
                     [7, 7, 7, 7, 7, 7, 3, 4, 5, 3, 4, 5, 7, 7, 7, 7, 7, 7, 3, 4, 5, 3, 4, 5], [50] * 6),
    "T": (lambda a: a[0].T, [7, 7, 7], [50, 1, 2, 3, 4, 5]),
    # an integer-Tensor index gathers a copy: the base's later writes do not show in it
    "Tensor index": (lambda a: a[Tensor([0])], [0, 1, 2], None),
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_views_share_storage_with_their_base(name):
    make, view_after_base_write, base_after_view_write = RECORDED[name]
    base = Tensor(BASE_213)
    view = make(base)
    base[0] = 7.0
    np.testing.assert_array_equal(view.asnumpy().ravel(), np.array(view_after_base_write, np.float32))
    if base_after_view_write is not None:
        base = Tensor(BASE_213)
        view = make(base)
        view[0] = 50.0
        np.testing.assert_array_equal(base.asnumpy().ravel(), np.array(base_after_view_write, np.float32))


def test_a_view_of_a_view_writes_into_the_root_and_its_siblings():
    # MindSpore 2.10 prints the same lists for each step
    base = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    rows = base.view(3, 2)
    first = rows[0]
    column = base[:, 0]
    first[1] = -1.0  # element 1 of the storage
    assert base.asnumpy().ravel().tolist() == [0, -1, 2, 3, 4, 5]
    assert rows.asnumpy().ravel().tolist() == [0, -1, 2, 3, 4, 5]
    base[1] = 9.0
    assert column.asnumpy().tolist() == [0, 9]
    assert first.asnumpy().tolist() == [0, -1]


def test_a_parameter_update_shows_in_its_views():
    weight = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
    row = weight[1]
    ops.assign(weight, Tensor(np.ones((2, 2), np.float32)))
    assert row.asnumpy().tolist() == [1.0, 1.0]


def test_out_of_place_arithmetic_makes_a_new_tensor():
    # MindSpore 2.10: ``v += 100`` rebinds the name v to a new Tensor; the base is untouched.
    base = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    view = base.view(3, 2)
    view += 100
    assert base.asnumpy().ravel().tolist() == [0, 1, 2, 3, 4, 5]


def test_a_view_given_another_shape_stops_sharing():
    base = Tensor(np.zeros((2, 3), np.float32))
    row = base[0]
    row[...] = 1.0  # same shape: written through
    assert base.asnumpy()[0].tolist() == [1.0, 1.0, 1.0]
    rebind(row, Tensor(np.full((4,), 5.0, np.float32))._value)  # another shape: detached, base kept
    assert base.asnumpy().ravel().tolist() == [1, 1, 1, 0, 0, 0]
    base[0] = 2.0
    assert row.asnumpy().tolist() == [5.0] * 4


def test_a_tensor_that_reuses_a_dead_views_id_is_not_taken_for_that_view():
    # A view outliving its root, then dying, must leave no entry: a new Tensor given the same id (CPython
    # reuses them) would otherwise be taken for a view of a dead root and record no views of its own.
    for _ in range(50):
        base = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        rows = [base[0], base[1]]
        del base
        del rows
        fresh = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        row = fresh[0]
        fresh[0] = 7.0
        assert row.asnumpy().tolist() == [7.0, 7.0, 7.0]
