"""Reductions, scans and sorting against NumPy, with MindSpore 2.10's result dtypes.

Float values, gradients and faces of the reductions and scans are checked by the op test table
(``tests/ops/test_op_table.py``, from their op-table entries); this file keeps what the table does
not: Bool and integer inputs with MindSpore's result dtypes, ties, NaN, errors, sorting.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax import Tensor, ops
from sporax.core import dtype as mstype

RNG = np.random.default_rng(2)
DTYPES = ["bool", "int32", "int64", "float16", "float32"]
MS_NAME = {"bool": "Bool", "int32": "Int32", "int64": "Int64", "float16": "Float16",
           "float32": "Float32", "float64": "Float64"}


def sample(dtype, shape=(2, 3, 4)):
    if dtype == "bool":
        return RNG.integers(0, 2, shape).astype(bool)
    if dtype.startswith("int"):
        return RNG.integers(-5, 6, shape).astype(dtype)
    return RNG.permutation(np.arange(np.prod(shape))).reshape(shape).astype(dtype) / 7 - 1.5


def tolerance(dtype):
    return dict(rtol=2e-2, atol=2e-2) if dtype == "float16" else dict(rtol=1e-5, atol=1e-5)


WIDEN = {"bool": "int64", "int32": "int64"}

# name, call, numpy reference, result dtype per input dtype (None: TypeError)
REDUCTIONS = [
    ("sum", lambda x, a, k: ops.sum(x, a, k), lambda d, a, k: d.sum(a, keepdims=k),
     lambda t: WIDEN.get(t, t)),
    ("reduce_sum", lambda x, a, k: ops.reduce_sum(x, () if a is None else a),
     lambda d, a, k: (d.any(a) if d.dtype == bool else d.sum(a)), lambda t: t),
    ("mean", lambda x, a, k: ops.mean(x, a, k), lambda d, a, k: d.mean(a, keepdims=k),
     lambda t: None if t == "bool" else t),
    ("reduce_mean", lambda x, a, k: ops.reduce_mean(x, () if a is None else a),
     lambda d, a, k: d.mean(a), lambda t: None if t == "bool" else t),
    ("prod", lambda x, a, k: ops.prod(x, a, k), lambda d, a, k: d.prod(a, keepdims=k),
     lambda t: WIDEN.get(t, t)),
    ("amax", lambda x, a, k: ops.amax(x, a, k), lambda d, a, k: d.max(a, keepdims=k),
     lambda t: t),
    ("amin", lambda x, a, k: ops.amin(x, a, k), lambda d, a, k: d.min(a, keepdims=k),
     lambda t: t),
    ("reduce_max", lambda x, a, k: ops.reduce_max(x, () if a is None else a),
     lambda d, a, k: d.max(a), lambda t: t),
    ("all", lambda x, a, k: ops.all(x, a, k), lambda d, a, k: d.all(a, keepdims=k),
     lambda t: "bool"),
    ("any", lambda x, a, k: ops.any(x, a, k), lambda d, a, k: d.any(a, keepdims=k),
     lambda t: "bool"),
    ("nansum", lambda x, a, k: ops.nansum(x, a, k), lambda d, a, k: d.sum(a, keepdims=k),
     lambda t: "int64" if t == "bool" else t),
    ("count_nonzero", lambda x, a, k: ops.count_nonzero(x, () if a is None else a, k),
     # MindSpore 2.10's count_nonzero refuses Bool ("The 'input x' doesn't support 'Bool'", recorded)
     lambda d, a, k: (d != 0).sum(a, keepdims=k), lambda t: None if t == "bool" else "int32"),
]
AXES = [(None, False), ((0, 2), True), (-1, False)]


def _integer_mean(data, axis, keepdims):
    total = data.astype(np.int64).sum(axis, keepdims=keepdims)
    count = data.size // np.asarray(total).size
    return np.trunc(total / count)


@pytest.mark.parametrize("name,call,reference,rule", REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
@pytest.mark.parametrize("dtype", ["bool", "int32"])
@pytest.mark.parametrize("axis,keepdims", AXES)
def test_reductions_of_bool_and_integers(name, call, reference, rule, dtype, axis, keepdims):
    if name.startswith("reduce_") or name == "count_nonzero":
        keepdims = keepdims and name == "count_nonzero"
    data = sample(dtype)
    expected = rule(dtype)
    if expected is None:
        # MindSpore 2.10's mean kernel refuses Bool at run time: RuntimeError "... unsupported reduce operation for bool."
        with pytest.raises(RuntimeError if "mean" in name else TypeError, match="(?i)bool"):
            call(Tensor(data), axis, keepdims)
        return
    result = call(Tensor(data), axis, keepdims)
    assert str(result.dtype) == MS_NAME[expected]
    if "mean" in name and dtype.startswith("int"):
        want = _integer_mean(data, axis, keepdims)  # MindSpore truncates integer means
    else:
        want = reference(data.astype(np.float64) if dtype != "bool" else data, axis, keepdims)
    np.testing.assert_allclose(result.asnumpy().astype(np.float64), np.asarray(want, np.float64),
                               **tolerance(dtype))


def test_int64_sums_and_means():
    data = sample("int64")
    assert ops.sum(Tensor(data), 1).dtype is mstype.int64
    assert ops.mean(Tensor(data)).dtype is mstype.int64
    np.testing.assert_array_equal(ops.sum(Tensor(data), 1).asnumpy(), data.sum(1))


def test_sum_with_dtype_and_mean_of_empty_axis_tuple():
    data = sample("int32")
    result = ops.sum(Tensor(data), dtype=mstype.float32)
    assert result.dtype is mstype.float32
    np.testing.assert_allclose(result.asnumpy(), data.sum())
    floats = sample("float32")
    np.testing.assert_allclose(ops.mean(Tensor(floats), ()).asnumpy(), floats.mean(), rtol=1e-5)
    # an empty tuple reduces every axis, as in MindSpore 2.10
    np.testing.assert_allclose(ops.sum(Tensor(floats), ()).asnumpy(), floats.sum(), rtol=1e-5)
    np.testing.assert_allclose(ops.amax(Tensor(floats), ()).asnumpy(), floats.max())
    np.testing.assert_allclose(ops.std(Tensor(floats), ()).asnumpy(), floats.std(), rtol=1e-5)
    np.testing.assert_allclose(ops.reduce_sum(Tensor(floats), [0, 1]).asnumpy(),
                               floats.sum((0, 1)), rtol=1e-5)


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("dtype", ["int32", "bool"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (1, False), (-1, True)])
def test_max_min_return_values_and_indices(name, dtype, axis, keepdims):
    data = sample(dtype)
    values, indices = getattr(ops, name)(Tensor(data), axis, keepdims)
    assert str(values.dtype) == MS_NAME[dtype] and indices.dtype is mstype.int64
    reduce, pick = (np.max, np.argmax) if name == "max" else (np.min, np.argmin)
    if axis is None:  # MindSpore 2.10 answers a 0-d value and index 0 over all axes (keepdims or not)
        want_values, want_indices = reduce(data), 0
    else:
        want_values = reduce(data, axis, keepdims=keepdims)
        want_indices = pick(data, axis, keepdims=keepdims)
    np.testing.assert_array_equal(values.asnumpy(), want_values)
    np.testing.assert_array_equal(indices.asnumpy(), want_indices)


def test_tied_maxima_share_the_gradient_as_mindspore():
    # MindSpore 2.10: max over all axes and amax split a tie; max along an axis gives it all to the index
    data = np.array([1.0, 3.0, 3.0])
    for function, expected in ((lambda x: ops.max(x)[0], [0.0, 0.5, 0.5]), (ops.amax, [0.0, 0.5, 0.5]),
                               (lambda x: ops.max(x, 0)[0], [0.0, 1.0, 0.0])):
        grad = jax.grad(lambda a: function(Tensor._wrap(a))._value)(data)
        np.testing.assert_allclose(np.asarray(grad), expected)


def test_max_with_initial_and_where():
    data = np.array([[1.0, 5.0, 2.0], [3.0, 1.0, 7.0]], np.float32)
    mask = Tensor(np.array([True, False, True]))
    values, indices = ops.max(Tensor(data), 1, initial=-1.0, where=mask)
    np.testing.assert_array_equal(values.asnumpy(), [2.0, 7.0])
    np.testing.assert_array_equal(indices.asnumpy(), [2, 2])
    np.testing.assert_array_equal(ops.amin(Tensor(data), 1, initial=2.0, where=mask).asnumpy(),
                                  [1.0, 2.0])
    with pytest.raises(ValueError, match="initial"):
        ops.amax(Tensor(data), 1, where=mask)


@pytest.mark.parametrize("dtype", ["int32", "bool"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (2, True)])
def test_argmax_int64_argmin_int32(dtype, axis, keepdims):
    data = sample(dtype)
    maximum = ops.argmax(Tensor(data), axis, keepdims)
    minimum = ops.argmin(Tensor(data), axis, keepdims)
    assert maximum.dtype is mstype.int64 and minimum.dtype is mstype.int32
    if axis is None:
        np.testing.assert_array_equal(maximum.asnumpy().reshape(()), np.argmax(data))
        np.testing.assert_array_equal(minimum.asnumpy().reshape(()), np.argmin(data))
    else:
        np.testing.assert_array_equal(maximum.asnumpy(), np.argmax(data, axis, keepdims=keepdims))
        np.testing.assert_array_equal(minimum.asnumpy(), np.argmin(data, axis, keepdims=keepdims))


@pytest.mark.parametrize("dtype,sum_dtype,prod_dtype", [
    ("int32", "Int32", "Int64"), ("int64", "Int64", "Int64"), ("bool", None, "Int64")])
def test_scans(dtype, sum_dtype, prod_dtype):
    data = sample(dtype, (3, 4))
    if sum_dtype is None:
        with pytest.raises(TypeError, match="cumsum"):
            ops.cumsum(Tensor(data), 1)
    else:
        result = ops.cumsum(Tensor(data), 1)
        assert str(result.dtype) == sum_dtype
        np.testing.assert_allclose(result.asnumpy().astype(np.float64),
                                   np.cumsum(data.astype(np.float64), 1), **tolerance(dtype))
    result = ops.cumprod(Tensor(data), 0)
    assert str(result.dtype) == prod_dtype
    np.testing.assert_allclose(result.asnumpy().astype(np.float64),
                               np.cumprod(data.astype(np.float64), 0), **tolerance(dtype))


def test_cumsum_dtype_cummax_cummin_logcumsumexp():
    data = np.array([1.0, 1.0, 0.0, 2.0, 2.0], np.float32)
    assert ops.cumsum(Tensor(data.astype(np.int32)), 0, dtype=mstype.float32).dtype is \
        mstype.float32
    values, indices = ops.cummax(Tensor(data), 0)
    np.testing.assert_array_equal(values.asnumpy(), [1, 1, 1, 2, 2])
    np.testing.assert_array_equal(indices.asnumpy(), [0, 1, 1, 3, 4])  # as MindSpore: last tie
    assert indices.dtype is mstype.int64
    values, indices = ops.cummin(Tensor(np.array([1.0, 1.0, 2.0, 0.0, 0.0], np.float32)), 0)
    np.testing.assert_array_equal(values.asnumpy(), [1, 1, 1, 0, 0])
    np.testing.assert_array_equal(indices.asnumpy(), [0, 1, 1, 3, 4])
    assert indices.dtype is mstype.int32
    np.testing.assert_allclose(ops.logcumsumexp(Tensor(data), 0).asnumpy(),
                               np.log(np.cumsum(np.exp(data))), rtol=1e-5)


# Float inputs are checked by the op test table (sort, argsort, topk entries); integers and Bool here.
@pytest.mark.parametrize("dtype", ["int32"])
@pytest.mark.parametrize("axis,descending", [(-1, False), (0, True)])
def test_sort_and_argsort(dtype, axis, descending):
    data = sample(dtype)
    values, indices = ops.sort(Tensor(data), axis, descending)
    assert str(values.dtype) == MS_NAME[dtype] and indices.dtype is mstype.int32
    order = np.argsort(-data if descending else data, axis, kind="stable")
    np.testing.assert_array_equal(indices.asnumpy(), order)
    np.testing.assert_array_equal(values.asnumpy(), np.take_along_axis(data, order, axis))
    np.testing.assert_array_equal(ops.argsort(Tensor(data), axis, descending).asnumpy(), order)


# (Bool is TopK's TypeError on MindSpore 2.10: tests/ops/test_dtype_refusals.py)
@pytest.mark.parametrize("dtype", ["int32", "float32"])
@pytest.mark.parametrize("dim,largest", [(None, True), (0, False), (1, True)])
def test_topk(dtype, dim, largest):
    data = sample(dtype)
    k = 2
    values, indices = ops.topk(Tensor(data), k, dim, largest)
    assert str(values.dtype) == MS_NAME[dtype] and indices.dtype is mstype.int32
    axis = -1 if dim is None else dim
    want = np.sort(data.astype(np.float64), axis)
    want = np.flip(want, axis) if largest else want
    want = np.take(want, np.arange(k), axis)
    np.testing.assert_array_equal(values.asnumpy().astype(np.float64), want)
    # the indices point at the values
    np.testing.assert_array_equal(np.take_along_axis(data, indices.asnumpy(), axis),
                                  values.asnumpy())


def test_topk_bad_k():
    with pytest.raises(ValueError, match="'k'"):
        ops.topk(Tensor(np.ones((2, 3), np.float32)), 4)
    with pytest.raises(TypeError, match="'k'"):
        ops.topk(Tensor(np.ones((2, 3), np.float32)), 1.5)


# --- gradients against finite differences ---
# (the op test table checks the gradients of sum, mean, prod, amax/amin, var/std, logsumexp and the scans)
GRADIENTS = [
    ("max", lambda x: ops.max(x, 1)[0]),
    ("norm", lambda x: ops.norm(x, dim=2)),
    ("norm_fro", lambda x: ops.norm(x, "fro", dim=(0, 1))),
    ("sort", lambda x: ops.mul(ops.sort(x, 1)[0], Tensor(np.arange(3.0).reshape(1, 3, 1)))),
    ("topk", lambda x: ops.topk(x, 2, 2)[0]),
    ("matmul", lambda x: ops.matmul(x, Tensor._wrap(jnp.swapaxes(jnp.exp(x._value), 1, 2)))),
]


@pytest.mark.parametrize("name,function", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradients(name, function):
    """The gradient's projection on random directions matches central differences."""
    data = sample("float64", (2, 3, 4)) + 0.3  # permuted distinct values: no ties
    output = function(Tensor(data)).asnumpy()
    weights = np.linspace(0.5, 1.5, output.size).reshape(output.shape)

    @jax.jit
    def scalar(array):
        return ops.sum(ops.mul(function(Tensor._wrap(array)), Tensor(weights)))._value

    grad = np.asarray(jax.jit(jax.grad(scalar))(data))
    step = 1e-6
    for direction in RNG.standard_normal((2,) + data.shape):
        numeric = (float(scalar(data + step * direction)) -
                   float(scalar(data - step * direction))) / (2 * step)
        np.testing.assert_allclose(np.sum(grad * direction), numeric, rtol=1e-4, atol=1e-6)


def test_reductions_under_jit():
    @jax.jit
    def step(a):
        x = Tensor._wrap(a)
        values, indices = ops.max(x, 1)
        return ops.add(ops.mean(x), ops.sum(values))._value, indices._value

    data = sample("float32")
    total, indices = step(data)
    np.testing.assert_allclose(total, data.mean() + data.max(1).sum(), rtol=1e-5)
    np.testing.assert_array_equal(indices, data.argmax(1))


@pytest.mark.parametrize("call,error,match", [
    (lambda x: ops.sum(x, 3), ValueError, "'sum'.*out of range"),
    (lambda x: ops.sum(x, (0, 0)), ValueError, "repeats"),
    (lambda x: ops.mean(x, "a"), TypeError, "'mean'.*axis"),
    (lambda x: ops.argmax(x, (0, 1)), TypeError, "single int"),
    (lambda x: ops.sum("x"), TypeError, "'sum'.*'input'"),
])
def test_reduction_errors_teach(call, error, match):
    with pytest.raises(error, match=match):
        call(Tensor(np.ones((2, 3), np.float32)))


def _running_extreme_reference(values, largest):
    """Loop reference: a NaN sticks, its index moving to each later NaN; ties move the index to the later
    position (MindSpore 2.10 CPU, recorded below)."""
    out, index, best, where = [], [], None, 0
    for position, value in enumerate(values):
        if best is None or np.isnan(value) or (value >= best if largest else value <= best):
            best, where = value, position
        out.append(best)
        index.append(where)
    return np.array(out), np.array(index)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("largest", [True, False])
def test_cummax_cummin_propagate_nan_from_its_first_index(dtype, largest):
    data = np.array([4, np.inf, 1.5, -np.inf, 0, np.nan, 1, np.nan, 4, 4], dtype)
    values, indices = (ops.cummax if largest else ops.cummin)(Tensor(data), 0)
    expect_values, expect_indices = _running_extreme_reference(data, largest)
    np.testing.assert_array_equal(values.asnumpy(), expect_values.astype(dtype))
    np.testing.assert_array_equal(indices.asnumpy(), expect_indices)
    # MindSpore 2.10 (CPU, Float16/32/64): cummax [0, 1, 1, 1, 1, 5, 5, 7, 7, 7], cummin [0, 0, 2, 3, 3, 5, 5, 7, 7, 7]
    assert indices.asnumpy().tolist() == ([0, 1, 1, 1, 1, 5, 5, 7, 7, 7] if largest else [0, 0, 2, 3, 3, 5, 5, 7, 7, 7])
    rows = np.array([[3, 1, 3, 2], [0, 5, 5, 7]], dtype)
    values, indices = (ops.cummax if largest else ops.cummin)(Tensor(rows), 1)
    for row in range(2):
        expect_values, expect_indices = _running_extreme_reference(rows[row], largest)
        np.testing.assert_array_equal(values.asnumpy()[row], expect_values)
        np.testing.assert_array_equal(indices.asnumpy()[row], expect_indices)


def test_cumsum_of_a_bool_tensor_as_mindspore():
    # MindSpore 2.10: dtype casts first (mindcv's EdgeNeXt counts a mask this way); the method counts
    # a Bool Tensor as Int32; the functional op without dtype refuses Bool.
    import sporax as ms
    from sporax import ops

    mask = ms.Tensor(np.array([[True, False, True]]))
    counted = mask.cumsum(1, dtype=ms.float32)
    assert counted.dtype == ms.float32 and counted.asnumpy().tolist() == [[1.0, 1.0, 2.0]]
    assert ops.cumsum(mask, 1, dtype=ms.float32).asnumpy().tolist() == [[1.0, 1.0, 2.0]]
    as_int = mask.cumsum(1)
    assert as_int.dtype == ms.int32 and as_int.asnumpy().tolist() == [[1, 1, 2]]
    with pytest.raises(TypeError, match="For 'cumsum', the argument 'x' must be a number Tensor"):
        ops.cumsum(mask, 1)


@pytest.mark.parametrize("mode", [0, 1])
def test_float16_sums_round_once(mode):
    """MindSpore 2.10's Float16 sums add up in Float32 and round once (recorded on CPU: ReduceSum, ops.sum,
    Tensor.sum and mint.sum of 3x5x7x9 normal*4 values and 2x5000 uniform ones equal NumPy's Float32 sum cast
    to Float16 everywhere); a Float16 running sum differed in 57-100% of the results, by up to 4 ulp."""
    import sporax as ms
    from sporax import mint

    ms.set_context(mode=mode)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 5, 7, 9)).astype(np.float16) * 4
    big = rng.random((2, 5000)).astype(np.float16)

    def expected(array, axis, keepdims=False):
        return array.astype(np.float32).sum(axis, keepdims=keepdims).astype(np.float16)

    cases = [(ops.ReduceSum()(Tensor(x), (1, 3)), expected(x, (1, 3))),
             (ops.ReduceSum(keep_dims=True)(Tensor(x)), expected(x, None, True)),
             (ops.sum(Tensor(x), 2), expected(x, 2)), (Tensor(x).sum(axis=(0, 2)), expected(x, (0, 2))),
             (mint.sum(Tensor(x), 3), expected(x, 3)), (ops.ReduceSum()(Tensor(big), 1), expected(big, 1))]
    for result, reference in cases:
        assert result.dtype == mstype.float16
        np.testing.assert_array_equal(result.asnumpy(), reference)
    ms.set_context(mode=1)


def test_argmax_argmin_over_all_elements_ignore_keepdims_as_mindspore():
    # recorded on MindSpore 2.10 CPU: without an axis keepdims gives a 0-d index (ops, Tensor method); with one it
    # keeps the axis; argmin of a 0-d input answers Int64
    data = Tensor(np.array([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], np.float32))
    for index, want in ((ops.argmax(data, None, keepdim=True), 3), (ops.argmin(data, None, keepdims=True), 4),
                        (data.argmax(keepdims=True), 3), (data.argmin(None, True), 4)):
        assert index.shape == () and index.asnumpy() == want
    cube = Tensor(np.arange(8.0, dtype=np.float32).reshape(2, 2, 2))
    assert ops.argmin(cube, None, keepdims=True).shape == ()
    assert ops.argmin(data, 1, keepdims=True).asnumpy().tolist() == [[0], [1]]
    assert ops.argmax(data, 1, keepdim=True).asnumpy().tolist() == [[1], [0]]
    scalar = Tensor(3.0)
    for index in (ops.argmin(scalar), ops.argmin(scalar, 0, keepdims=True), scalar.argmin()):
        assert index.dtype is mstype.int64 and index.shape == () and index.asnumpy() == 0
    assert ops.argmin(Tensor(np.array([3.0, 1.0], np.float32))).dtype is mstype.int32
