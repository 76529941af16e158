"""Tensor methods that MindSpore 2.10 defines as the ops function with the Tensor first (checked on the oracle:
each method's result equals the function's there), so each must equal sporax's function here. Methods generated
from op-table entries (``take``, ``unique_consecutive``, the unsorted segment reductions) are checked by the op test
table."""
import numpy as np
import pytest

import sporax as ms
from sporax import ops

X = ms.Tensor(np.arange(1, 7, dtype=np.float32).reshape(2, 3) / 7)
ONES_24, ONES_43 = ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.ones((4, 3), np.float32))
INTS = ms.Tensor(np.array([1, 1, 2, 2, 1], np.int32))

CASES = [
    ("addmm", X, (ONES_24, ONES_43), {"beta": 0.5, "alpha": 2.0}),
    ("diagflat", X, (1,), {}),
    ("logit", X, (0.1,), {}),
    ("median", X, (0,), {}),
    ("soft_shrink", X, (0.3,), {}),
    ("dsplit", ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 4)), (2,), {}),
    ("reverse_sequence", X, (ms.Tensor(np.array([2, 3], np.int32)), 1, 0), {}),
]


def _arrays(result):
    if isinstance(result, (tuple, list)):
        return [item.asnumpy() for item in result]
    return [result.asnumpy()]


@pytest.mark.parametrize("name, tensor, args, kwargs", CASES, ids=[case[0] for case in CASES])
def test_method_is_the_function(name, tensor, args, kwargs):
    for got, expected in zip(_arrays(getattr(tensor, name)(*args, **kwargs)),
                             _arrays(getattr(ops, name)(tensor, *args, **kwargs))):
        np.testing.assert_array_equal(got, expected)


def test_values():
    # Oracle values (MindSpore 2.10): addmm rows start 8.0714; median over axis 0 is the first row.
    np.testing.assert_allclose(X.addmm(ONES_24, ONES_43, beta=0.5, alpha=2.0).asnumpy()[0, :2], [8.071428, 8.142858],
                               rtol=1e-6)
    np.testing.assert_allclose(X.median(0)[0].asnumpy(), X.asnumpy()[0], rtol=1e-6)
    np.testing.assert_allclose(X.take(ms.Tensor(np.array([0, 4], np.int32))).asnumpy(), [1 / 7, 5 / 7], rtol=1e-6)
    assert INTS.unique_consecutive().asnumpy().tolist() == [1, 2, 1]
