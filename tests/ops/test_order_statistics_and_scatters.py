"""Order statistics, nn functions, array embedding/segment ops and in-place scatters."""
import re

import numpy as np
import pytest
import scipy.special

from sporax import Parameter, Tensor, int64, ops
from sporax.ops import functional as F

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 4)).astype(np.float32)


def t(a):
    return Tensor(np.asarray(a))


def close(result, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(result.asnumpy() if hasattr(result, "asnumpy") else np.asarray(result),
                               np.asarray(expected), rtol=rtol, atol=atol)


def _lrn(x, radius, bias, alpha, beta):
    squared = np.pad(x * x, ((0, 0), (radius, radius), (0, 0), (0, 0)))
    window = sum(squared[:, i:i + x.shape[1]] for i in range(2 * radius + 1))
    return x / (bias + alpha * window) ** beta


def _multi_margin(x, y, p=1, margin=1.0):
    loss = np.maximum(margin - x[np.arange(len(y)), y][:, None] + x, 0) ** p
    loss[np.arange(len(y)), y] = 0
    return loss.sum(1) / x.shape[1]


def _rms(x, gamma, eps=1e-6):
    rstd = 1 / np.sqrt(np.mean(x * x, -1, keepdims=True) + eps)
    return x * rstd * gamma, rstd


LABELS = np.array([3, 0, 1])
CASES = [
    ("SearchSorted", lambda: ops.SearchSorted(right=True)(t([1.0, 2.0, 2.0]), t([2.0])), [3]),
    ("LowerBound", lambda: ops.LowerBound()(t([[1, 2, 2, 5]]), t([[2, 6]])), [[1, 4]]),
    ("UpperBound", lambda: ops.UpperBound()(t([[1, 2, 2, 5]]), t([[2, 0]])), [[3, 0]]),
    ("NthElement", lambda: ops.NthElement(reverse=True)(t(X), 1), -np.sort(-X, 1)[:, 1]),
    ("Median", lambda: ops.Median(axis=1)(t(X))[0], np.sort(X, 1)[:, 1]),
    ("lrn", lambda: ops.lrn(t(X.reshape(1, 3, 2, 2)), depth_radius=1, alpha=0.5),
     _lrn(X.reshape(1, 3, 2, 2), 1, 1.0, 0.5, 0.5)),
    ("LRN", lambda: ops.LRN(depth_radius=2, beta=0.75)(t(X.reshape(1, 3, 2, 2))), _lrn(X.reshape(1, 3, 2, 2), 2, 1.0, 1.0,
                                                                                       0.75)),
    ("multi_margin_loss", lambda: ops.multi_margin_loss(t(X), t(LABELS)), _multi_margin(X, LABELS).mean()),
    ("MultiMarginLoss", lambda: ops.MultiMarginLoss(p=2, reduction="none")(t(X), t(LABELS)),
     _multi_margin(X, LABELS, 2)),
    ("multilabel_margin_loss", lambda: ops.multilabel_margin_loss(t([[0.1, 0.2, 0.4, 0.8]]), t([[3, 0, -1, 1]])),
     0.85),  # the documented torch-compatible value
    ("multilabel_soft_margin_loss",
     lambda: ops.multilabel_soft_margin_loss(t([[0.3, 0.6, 0.6], [0.9, 0.4, 0.2]]), t([[0.0, 0, 1], [0, 0, 1]])),
     0.84694),  # oracle (MindSpore 2.10 CPU)
    ("mse_loss_ext", lambda: ops.mse_loss_ext(t(X), t(X[:1].copy()), reduction="sum"), ((X - X[:1]) ** 2).sum()),
    ("swiglu", lambda: ops.swiglu(t(X)), X[:, :2] * scipy.special.expit(X[:, :2]) * X[:, 2:]),
    ("rms_norm", lambda: ops.rms_norm(t(X), t(X[0].copy()))[0], _rms(X, X[0])[0]),
    ("rms_norm_rstd", lambda: ops.RmsNorm()(t(X), t(X[0].copy()))[1], _rms(X, X[0])[1]),
    ("masked_scatter", lambda: ops.MaskedScatter()(t(X[0].copy()), t(np.array([True, False, True, True])),
                                                   t([9.0, 8.0, 7.0])), [9.0, X[0, 1], 8.0, 7.0]),
    ("unfold", lambda: ops.unfold(t(np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4)), 2, stride=2),
     [[[0, 2, 8, 10], [1, 3, 9, 11], [4, 6, 12, 14], [5, 7, 13, 15]]]),  # oracle
    ("PadV3", lambda: ops.PadV3(mode="edge")(t(X), (1, 2)), np.pad(X, ((0, 0), (1, 2)), "edge")),
    ("PadV3_constant", lambda: ops.PadV3(paddings_contiguous=False)(t(X), (1, 0, 2, 1), t(np.float32(5))),
     np.pad(X, ((0, 1), (1, 2)), constant_values=5)),
    ("SegmentSum", lambda: ops.SegmentSum()(t(X), t(np.array([0, 0, 2]))), [X[0] + X[1], np.zeros(4), X[2]]),
    ("SegmentMax", lambda: ops.SegmentMax()(t(X), t(np.array([0, 0, 2]))), [np.maximum(X[0], X[1]), np.zeros(4),
                                                                            X[2]]),
    ("SegmentMin", lambda: ops.SegmentMin()(t(X), t(np.array([0, 1, 1]))), [X[0], np.minimum(X[1], X[2])]),
    ("SegmentMean", lambda: ops.SegmentMean()(t(X), t(np.array([0, 0, 2]))), [(X[0] + X[1]) / 2, np.zeros(4), X[2]]),
    ("SegmentProd", lambda: ops.SegmentProd()(t(X), t(np.array([0, 0, 2]))), [X[0] * X[1], np.ones(4), X[2]]),
    ("UnravelIndex", lambda: ops.UnravelIndex()(t(np.array([5, 7], np.int32)), t(np.array([3, 4], np.int32))),
     np.unravel_index([5, 7], (3, 4))),
    ("RaggedRange_values", lambda: ops.RaggedRange(int64)(t([2, 5, 8]), t([3, 5, 12]), t([1, 1, 1]))[1],
     [2, 8, 9, 10, 11]),
    ("RaggedRange_splits", lambda: ops.RaggedRange(int64)(t([2, 5, 8]), t([3, 5, 12]), t([1, 1, 1]))[0], [0, 1, 1, 5]),
    ("ParallelConcat", lambda: ops.ParallelConcat()((t(X[:1].copy()), t(X[1:2].copy()))), X[:2]),
    ("TensorShape", lambda: ops.TensorShape()(t(X)), [3, 4]),
    ("TransposeView", lambda: ops.TransposeView()(t(X), (1, 0)), X.T),
    ("TransposeExtView", lambda: ops.TransposeExtView()(t(X), 0, 1), X.T),
    ("SelectView", lambda: ops.SelectView()(t(X), 1, 2), X[:, 2]),
    ("ScatterAddWithAxis", lambda: ops.ScatterAddWithAxis(axis=1)(t(X), t(np.array([[0], [0], [1]])),
                                                                  t(np.ones((3, 1), np.float32))),
     X + np.array([[1, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0]])),
    ("LogSpace", lambda: ops.LogSpace(steps=3, base=2)(t(np.float32(0)), t(np.float32(2))), [1.0, 2.0, 4.0]),
    ("LogSoftmaxExt", lambda: ops.LogSoftmaxExt()(t(X)), scipy.special.log_softmax(X, 1)),
    ("TripletMarginLoss", lambda: ops.TripletMarginLoss(reduction="none")(t(X), t(X * 0), t(X + 1), t(np.float32(1))),
     np.maximum(np.linalg.norm(X + 1e-6, axis=1) - np.linalg.norm(-1 + 1e-6 + X * 0, axis=1) + 1, 0)),
    ("ptp", lambda: t(X).ptp(axis=1), np.ptp(X, 1)),
    ("sum_to_size", lambda: t(X).sum_to_size(1, 4), X.sum(0, keepdims=True)),
]


@pytest.mark.parametrize("name,call,expected", CASES, ids=[c[0] for c in CASES])
def test_values(name, call, expected):
    close(call(), expected, rtol=1e-4, atol=1e-5)


def test_multilabel_margin_primitive_marks_targets():
    loss, is_target = ops.MultilabelMarginLoss()(t([[0.1, 0.2, 0.4, 0.8]]), t(np.array([[3, 0, -1, 1]], np.int32)))
    close(loss, 0.85)
    close(is_target, [[1, 0, 0, 1]])


def test_rrelu_keeps_positive_values():
    # negative inputs' random slopes: the op table (rrelu's Distribution)
    close(ops.rrelu(t(np.array([2.0, 0.0], np.float32))), [2.0, 0.0])


def test_in_place_scatters_on_parameters():
    p = Parameter(t(np.ones((3, 2), np.float32)), name="p")
    rows, updates = t(np.array([0, 2])), t(np.array([[2.0, 4.0], [0.5, 3.0]], np.float32))
    result = ops.scatter_mul(p, rows, updates)
    # MindSpore 2.10 returns a new Tensor of the stored value, not the Parameter
    assert type(result) is Tensor and result is not p
    close(result, [[2, 4], [1, 1], [0.5, 3]])
    close(p, [[2, 4], [1, 1], [0.5, 3]])
    ops.ScatterDiv()(p, rows, updates)
    close(p, np.ones((3, 2)))
    ops.scatter_max(p, rows, updates)
    close(p, [[2, 4], [1, 1], [1, 3]])
    ops.ScatterMin()(p, rows, updates)
    close(p, [[2, 4], [1, 1], [0.5, 3]])
    ops.ScatterSub()(p, rows, updates)
    close(p, [[0, 0], [1, 1], [0, 0]])
    nd = t(np.array([[1, 1]]))
    for function, value, expected in ((ops.scatter_nd_sub, 3.0, -2.0), (ops.scatter_nd_mul, 4.0, -8.0),
                                      (ops.ScatterNdDiv(), -2.0, 4.0), (ops.scatter_nd_max, 5.0, 5.0),
                                      (ops.ScatterNdMin(), 1.0, 1.0), (ops.ScatterNonAliasingAdd(), 2.0, 3.0)):
        function(p, nd, t(np.array([value], np.float32)))
        assert p.asnumpy()[1, 1] == expected
    with pytest.raises(TypeError, match="scatter_mul"):
        ops.scatter_mul(np.ones(3), rows, updates)


def test_tensor_methods_and_in_place_writes():
    x = t(X.copy())
    assert x.put_(t(np.array([0, 5])), t(np.array([7.0, 8.0], np.float32))) is x
    assert x.asnumpy()[0, 0] == 7.0 and x.asnumpy()[1, 1] == 8.0
    ops.put_(x, t(np.array([0])), t(np.array([1.0], np.float32)), accumulate=True)
    assert x.asnumpy()[0, 0] == 8.0
    y = t(np.zeros(4, np.float32))
    y.masked_scatter_(t(np.array([False, True, False, True])), t([1.0, 2.0]))
    close(y, [0, 1, 0, 2])
    close(t(np.zeros(3, np.float32)).scatter_add(0, t(np.array([1, 1])), t([1.0, 2.0])), [0, 3, 0])
    z = t(np.zeros(3, np.float32))
    z.scatter_(0, t(np.array([2])), t([5.0]))
    z.scatter_add_(0, t(np.array([2])), t([1.0]))
    close(z, [0, 0, 6])
    close(t(np.ones((2, 2), np.float32)).scatter_div(t(np.array([[1]])), t([[2.0, 4.0]])), [[1, 1], [0.5, 0.25]])
    close(t(X).select(1, 2), X[:, 2])
    close(t(np.sort(X[0])).searchsorted(t(X[0].copy()), side="right"),
          np.searchsorted(np.sort(X[0]), X[0], side="right"))
    samples = t(np.zeros(2000, np.float32)).log_normal(0.0, 0.25).asnumpy()
    assert samples.min() > 0 and abs(np.log(samples).std() - 0.25) < 0.03
    assert F.Median is ops.Median and F.Roll is ops.Roll and F.TensorToTuple()(t([5, 7])) == (5, 7)


def test_errors_name_the_op():
    with pytest.raises(TypeError, match="quantile"):
        ops.quantile(t(np.array([1, 2])), 0.5)
    with pytest.raises(ValueError, match="select_scatter"):
        ops.select_scatter(t(X), t(np.ones(2, np.float32)), 1, 0)
    with pytest.raises(ValueError, match="mirror_pad"):
        ops.mirror_pad(t(X), t(np.array([[3, 3], [0, 0]])), "REFLECT")
    with pytest.raises(ValueError, match="SegmentSum"):
        ops.SegmentSum()(t(X), t(np.array([1, 0, 2])))
    with pytest.raises(ValueError, match="multi_margin_loss"):
        ops.multi_margin_loss(t(X), t(LABELS), reduction="avg")
    # MindSpore 2.10 (functional, Cell and Primitive alike) takes Int64 class indices only
    with pytest.raises(TypeError, match=re.escape("For primitive[MultiMarginLoss], the input argument[target] must be "
                                                  "a type of {Tensor[Int64]}, but got Tensor[Int32].")):
        ops.MultiMarginLoss()(t(X), t(LABELS.astype(np.int32)))
    with pytest.raises(ValueError, match="swiglu"):
        ops.swiglu(t(X[:, :3].copy()))


_IN_PLACE_SCATTERS = [(ops.ScatterNdAdd, True, RuntimeError), (ops.ScatterNdSub, True, RuntimeError),
                      (ops.ScatterNdDiv, True, RuntimeError), (ops.ScatterNdMax, True, RuntimeError),
                      (ops.ScatterNdUpdate, True, ValueError), (ops.ScatterAdd, False, RuntimeError),
                      (ops.ScatterUpdate, False, RuntimeError), (ops.ScatterMul, False, RuntimeError)]


@pytest.mark.parametrize("primitive, nd, error", _IN_PLACE_SCATTERS)
@pytest.mark.parametrize("bad", [4, -1])
def test_in_place_scatter_refuses_indices_out_of_range(primitive, nd, error, bad):
    """MindSpore 2.10 raises (RuntimeError; ScatterNdUpdate a ValueError) for an index outside [0, 4) instead of
    dropping the update; the Parameter keeps its value."""
    x = Parameter(Tensor(np.ones((4, 3), np.int32)), name="x")
    indices = Tensor(np.array([[0], [bad]] if nd else [0, bad], np.int32))
    with pytest.raises(error, match=f"{primitive.__name__}.*got {bad}"):
        primitive()(x, indices, Tensor(np.full((2, 3), 2, np.int32)))
    np.testing.assert_array_equal(x.asnumpy(), np.ones((4, 3), np.int32))


def test_compiled_in_place_scatter_refuses_indices_out_of_range():
    """Under jit the check runs with the program: the indices are only known then."""
    import sporax as ms
    x = Parameter(Tensor(np.zeros((4,), np.float32)), name="x")
    scatter = ms.jit(lambda indices: ops.ScatterNdAdd()(x, indices, Tensor(np.ones((2,), np.float32))))
    scatter(Tensor(np.array([[1], [3]], np.int32)))
    np.testing.assert_array_equal(x.asnumpy(), [0, 1, 0, 1])
    with pytest.raises(RuntimeError, match="ScatterNdAdd"):
        scatter(Tensor(np.array([[1], [4]], np.int32)))


@pytest.mark.parametrize("dtype, low, high", [(np.int32, -2**31, 2**31 - 1), (np.int8, -128, 127), (np.uint8, 255, 255)])
def test_scatter_nd_div_by_zero_saturates_integers(dtype, low, high):
    """MindSpore 2.10's ScatterNdDiv: -7 / 0 -> the dtype's minimum, 7 / 0 -> its maximum, 0 / 0 -> 0 (uint8's
    -7 is 249 > 0, so its maximum)."""
    x = Parameter(Tensor(np.array([-7, 7, 0, 5]).astype(dtype)), name="x")
    ops.ScatterNdDiv()(x, Tensor(np.array([[0], [1], [2], [3]], np.int32)), Tensor(np.array([0, 0, 0, 2], dtype)))
    np.testing.assert_array_equal(x.asnumpy(), np.array([low, high, 0, 2]).astype(dtype))


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
def test_scatter_div_refuses_a_zero_divisor(dtype):
    """MindSpore 2.10's ScatterDiv (rows) raises for a zero in 'updates', whatever the dtype."""
    x = Parameter(Tensor(np.array([4, 6], dtype)), name="x")
    with pytest.raises(ValueError, match="ScatterDiv.*0"):
        ops.ScatterDiv()(x, Tensor(np.array([0, 1], np.int32)), Tensor(np.array([2, 0], dtype)))
    ops.ScatterDiv()(x, Tensor(np.array([0, 1], np.int32)), Tensor(np.array([2, 3], dtype)))
    np.testing.assert_array_equal(x.asnumpy(), np.array([2, 2], dtype))


def test_in_place_scatter_refuses_to_change_the_parameters_dtype():
    """MindSpore 2.10 (PyNative and GRAPH_MODE): float32 updates into an int32 Parameter raise TypeError; int32
    updates into a float32 Parameter are cast ([1. 0. 2.])."""
    indices = Tensor(np.array([[0], [2]], np.int32))
    with pytest.raises(TypeError, match=r"^Data type conversion is not supported for a 'Parameter', nor for the "
                                        r"input tensor of an in-place operator, the argument\[input_x\]'s data type "
                                        r"of primitive\[ScatterNdUpdate\] is Int32, which cannot be converted to "
                                        r"data type Float32 automatically\."):
        ops.ScatterNdUpdate()(Parameter(Tensor(np.zeros(3, np.int32)), name="p"), indices,
                              Tensor(np.array([1.5, 2.5], np.float32)))
    weights = Parameter(Tensor(np.zeros(3, np.float32)), name="q")
    ops.ScatterNdUpdate()(weights, indices, Tensor(np.array([1, 2], np.int32)))
    assert weights.asnumpy().tolist() == [1.0, 0.0, 2.0]


_ROWS, _TUPLES = np.array([0, 2], np.int32), np.array([[0], [2]], np.int32)
_UPDATES = np.array([[9, 9], [8, 8]], np.float32)


@pytest.mark.parametrize("update, expected", [
    (lambda p: ops.ScatterNdUpdate()(p, t(_TUPLES), t(_UPDATES)), [[9, 9], [2, 3], [8, 8]]),
    (lambda p: ops.ScatterNdAdd()(p, t(_TUPLES), t(_UPDATES)), [[9, 10], [2, 3], [12, 13]]),
    (lambda p: ops.ScatterUpdate()(p, t(_ROWS), t(_UPDATES)), [[9, 9], [2, 3], [8, 8]]),
    (lambda p: ops.ScatterAdd()(p, t(_ROWS), t(_UPDATES)), [[9, 10], [2, 3], [12, 13]]),
    (lambda p: ops.scatter_nd_sub(p, t(_TUPLES), t(_UPDATES)), [[-9, -8], [2, 3], [-4, -3]]),
    (lambda p: ops.ScatterMin()(p, t(_ROWS), t(_UPDATES)), [[0, 1], [2, 3], [4, 5]]),
    (lambda p: ops.assign(p, t(np.ones((3, 2), np.float32))), [[1, 1], [1, 1], [1, 1]]),
    (lambda p: ops.AssignAdd()(p, t(np.ones((3, 2), np.float32))), [[1, 2], [3, 4], [5, 6]]),
    (lambda p: ops.assign_sub(p, t(np.ones((3, 2), np.float32))), [[-1, 0], [1, 2], [3, 4]]),
    (lambda p: ops.InplaceIndexAdd(0)(p, t(_ROWS), t(_UPDATES)), [[9, 10], [2, 3], [12, 13]])])
@pytest.mark.parametrize("holder", [Parameter, Tensor])
def test_parameter_updates_return_a_new_tensor_of_the_stored_value(update, expected, holder):
    # MindSpore 2.10 (PyNative and GRAPH, recorded): the input (a Parameter or a Tensor) is updated in place and
    # the op returns a new Tensor of its value; a later assign into the input leaves that Tensor as it was
    target = holder(t(np.arange(6, dtype=np.float32).reshape(3, 2)))
    result = update(target)
    assert type(result) is Tensor and result is not target and result.dtype == target.dtype
    close(result, expected)
    close(target, expected)
    ops.assign(target, t(np.zeros((3, 2), np.float32)))
    close(result, expected)


def test_global_median_index_is_zero_as_mindspore():
    """MindSpore 2.10 CPU printed index 0 for every global median (the median 5 of [9, 1, 5, 7, 3] too)."""
    for values, median in (([[1, 7, 6], [5, 1, 3], [9, 17, 1]], 5), ([9, 1, 5, 7, 3], 5), ([[2.0, 8.0], [6.0, 4.0]], 4)):
        value, index = ops.Median(global_median=True)(Tensor(np.array(values)))
        assert value.asnumpy() == median and index.asnumpy() == 0 and index.dtype == int64
    value, index = ops.Median(global_median=True, ignore_nan=True)(Tensor(np.array([9.0, 1.0, 5.0])))
    assert value.asnumpy() == 5 and index.asnumpy() == 0
    _, indices = ops.Median(axis=0)(Tensor(np.array([[5, 1, 2], [3, 5, 7], [1, 6, 4]])))
    assert indices.asnumpy().tolist() == [1, 1, 2]
