"""MindSpore 2.10 CPU's NaN rules on the comparison kernels (sporax.ops.functional.nan_orders).

Every expected value below was recorded from MindSpore 2.10 (CPU, PyNative); NaN is written ``NAN``.
"""
import jax
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops

NAN = np.nan


def _f32(values):
    return Tensor(np.array(values, np.float32))


def test_maximum_and_minimum_give_the_second_operand_when_the_comparison_fails():
    a = _f32([NAN, 1.0, NAN, 2.0, -0.0, 0.0])
    b = _f32([1.0, NAN, NAN, 2.0, 0.0, -0.0])
    for op in (ops.maximum, ops.minimum):
        result = op(a, b).asnumpy()
        np.testing.assert_array_equal(result, [1.0, NAN, NAN, 2.0, 0.0, -0.0])
        np.testing.assert_array_equal(np.signbit(result), [False, False, False, False, False, True])


def test_maximum_with_a_scalar_and_broadcasting():
    np.testing.assert_array_equal(ops.maximum(_f32([NAN, 1.0]), 2.0).asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(ops.maximum(2.0, _f32([NAN, 1.0])).asnumpy(), [NAN, 2.0])
    result = ops.maximum(_f32([[NAN], [1.0]]), _f32([1.0, NAN, 3.0])).asnumpy()
    np.testing.assert_array_equal(result, [[1.0, NAN, 3.0], [1.0, NAN, 3.0]])
    half = ops.maximum(Tensor(np.array([NAN, 1], np.float16)), Tensor(np.array([1, NAN], np.float16)))
    np.testing.assert_array_equal(half.asnumpy(), [1.0, NAN])


@pytest.mark.parametrize("op", [ops.maximum, ops.minimum])
def test_maximum_gradient_reaches_both_operands_where_nan_compares(op):
    x, y = _f32([NAN, 1.0, 2.0, 3.0]), _f32([1.0, NAN, 2.0, 0.0])
    dx, dy = ms.grad(lambda a, b: op(a, b).sum(), grad_position=(0, 1))(x, y)
    winner_is_x = op is ops.maximum
    np.testing.assert_array_equal(dx.asnumpy(), [1.0, 1.0, 0.5, 1.0 if winner_is_x else 0.0])
    np.testing.assert_array_equal(dy.asnumpy(), [1.0, 1.0, 0.5, 0.0 if winner_is_x else 1.0])


def test_gradient_of_the_operand_not_chosen_is_a_positive_zero():
    # MindSpore 2.10 prints 0. (not -0.) for the operand maximum/minimum/hardtanh pass over, under a
    # negative gradient; the chosen operand gets the gradient, a tie half of it.
    x = _f32([-2.0, -0.5, 0.0, 0.5, 2.0, 7.0])
    weight = _f32([-1.0] * 6)
    cases = {
        "maximum": (lambda a: ops.maximum(a, 0.0), [0.0, 0.0, -0.5, -1.0, -1.0, -1.0]),
        "minimum": (lambda a: ops.minimum(a, 0.0), [-1.0, -1.0, -0.5, 0.0, 0.0, 0.0]),
        "hardtanh": (lambda a: ops.hardtanh(a, -1.0, 1.0), [0.0, -1.0, -1.0, -1.0, 0.0, 0.0]),
    }
    for name, (function, expected) in cases.items():
        gradient = ms.grad(lambda a: (function(a) * weight).sum())(x).asnumpy()
        np.testing.assert_array_equal(gradient, expected, err_msg=name)
        np.testing.assert_array_equal(np.signbit(gradient), np.array(expected) < 0, err_msg=name)


def test_hardsigmoid_gradient_is_mindspores_selection():
    # MindSpore 2.10's HSigmoidGrad: dy / 6 unless x <= -3 or x >= 3 (a plain 0. there, bounds included);
    # NaN takes the middle branch. Values recorded under a -1 cotangent.
    x = _f32([-4.0, -3.0, 0.0, 3.0, 7.0, NAN])
    np.testing.assert_array_equal(ops.hardsigmoid(x).asnumpy(), [0.0, 0.0, 0.5, 1.0, 1.0, NAN])
    gradient = ms.grad(lambda a: (ops.hardsigmoid(a) * _f32([-1.0] * 6)).sum())(x).asnumpy()
    sixth = np.float32(-1.0) / np.float32(6.0)
    np.testing.assert_array_equal(gradient, [0.0, 0.0, sixth, 0.0, 0.0, sixth])
    assert not np.signbit(gradient[[0, 1, 3, 4]]).any()


def test_clamp_with_nan_input_gives_the_bound_and_no_gradient():
    x = _f32([NAN, -3.0, 3.0, 0.5])
    np.testing.assert_array_equal(ops.clamp(x, -1.0, 1.0).asnumpy(), [-1.0, -1.0, 1.0, 0.5])
    np.testing.assert_array_equal(ops.clamp(x, -1.0).asnumpy(), [-1.0, -1.0, 3.0, 0.5])
    np.testing.assert_array_equal(ops.clamp(x, None, 1.0).asnumpy(), [1.0, -3.0, 1.0, 0.5])
    np.testing.assert_array_equal(x.clamp(-1.0, 1.0).asnumpy(), [-1.0, -1.0, 1.0, 0.5])
    bounds = ops.clamp(x, _f32([-1.0, NAN, -1.0, NAN]), _f32([1.0, 1.0, NAN, NAN]))
    np.testing.assert_array_equal(bounds.asnumpy(), [-1.0, 1.0, NAN, NAN])
    gradient = ms.grad(lambda t: ops.clamp(t, -1.0, 1.0).sum())(x)
    np.testing.assert_array_equal(gradient.asnumpy(), [0.0, 0.0, 0.0, 1.0])


def test_clip_by_value_nan_input_and_its_maximum_gradient():
    x = _f32([NAN, -3.0, 3.0, 0.5, -1.0, 1.0])
    low, high = Tensor(-1.0, ms.float32), Tensor(1.0, ms.float32)
    np.testing.assert_array_equal(ops.clip_by_value(x, low, high).asnumpy(), [-1.0, -1.0, 1.0, 0.5, -1.0, 1.0])
    gradient = ms.grad(lambda t: ops.clip_by_value(t, low, high).sum())(x)
    np.testing.assert_array_equal(gradient.asnumpy(), [1.0, 0.0, 0.0, 1.0, 0.5, 0.5])


@pytest.mark.parametrize("row, largest, smallest, argmax, argmin", [
    ([NAN, 1.0, 5.0], NAN, NAN, 0, 0),
    ([1.0, NAN, 5.0], 5.0, 1.0, 2, 0),
    ([1.0, 5.0, NAN], 5.0, 1.0, 1, 0),
])
def test_extreme_reductions_keep_nan_only_in_first_place(row, largest, smallest, argmax, argmin):
    t = _f32(row)
    for value in (ops.amax(t), ops.max(t)[0], t.max(), ops.ReduceMax()(t), ops.ArgMaxWithValue()(t)[1]):
        np.testing.assert_array_equal(value.asnumpy(), largest)
    for value in (ops.amin(t), ops.min(t)[0], ops.ReduceMin()(t)):
        np.testing.assert_array_equal(value.asnumpy(), smallest)
    assert int(ops.argmax(t).asnumpy()) == argmax == int(ops.Argmax()(t).asnumpy())
    assert int(ops.argmin(t).asnumpy()) == argmin


def test_extreme_reductions_over_axes():
    m = _f32([[1.0, NAN, 3.0], [NAN, 2.0, 0.0], [4.0, 5.0, NAN]])
    np.testing.assert_array_equal(ops.amax(m, 0).asnumpy(), [4.0, NAN, 3.0])
    np.testing.assert_array_equal(ops.amax(m, 1).asnumpy(), [3.0, NAN, 5.0])
    np.testing.assert_array_equal(ops.amax(m).asnumpy(), 5.0)
    np.testing.assert_array_equal(ops.argmax(m, 0).asnumpy(), [2, 0, 0])
    np.testing.assert_array_equal(ops.argmax(m, 1).asnumpy(), [2, 0, 1])
    np.testing.assert_array_equal(ops.argmin(m, 0).asnumpy(), [0, 0, 1])
    np.testing.assert_array_equal(ops.argmin(m, 1).asnumpy(), [0, 0, 0])
    values, indices = ops.max(m, 1)
    np.testing.assert_array_equal(values.asnumpy(), [3.0, NAN, 5.0])
    np.testing.assert_array_equal(indices.asnumpy(), [2, 0, 1])
    cube = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    cube[0, 0, 0], cube[1, 1, 2], cube[0, 2, 1] = NAN, NAN, NAN
    np.testing.assert_array_equal(ops.amax(Tensor(cube), (0, 2)).asnumpy(), [NAN, 19.0, 23.0])
    np.testing.assert_array_equal(ops.amax(Tensor(cube), (1, 2)).asnumpy(), [NAN, 23.0])


def test_long_rows_pass_over_a_later_nan():
    values = np.random.default_rng(0).standard_normal(257).astype(np.float32)
    for position in (1, 8, 31, 256):
        row = values.copy()
        row[position] = NAN
        assert float(ops.amax(Tensor(row)).asnumpy()) == np.nanmax(row)
        assert int(ops.argmin(Tensor(row)).asnumpy()) == np.nanargmin(row)


def test_amax_gradient_splits_between_tied_numbers_past_a_nan():
    gradient = ms.grad(lambda a: ops.amax(a))(_f32([1.0, NAN, 5.0, 5.0]))
    np.testing.assert_array_equal(gradient.asnumpy(), [0.0, 0.0, 0.5, 0.5])


def test_matmul_primitives_refuse_mixed_dtypes():
    f32, f16, i32 = (Tensor(np.ones((2, 2)), dtype) for dtype in (ms.float32, ms.float16, ms.int32))
    with pytest.raises(TypeError, match="'x2' should be same as 'x1'"):
        ops.MatMul()(f32, i32)
    with pytest.raises(TypeError, match="'x2' should be same as 'x1'"):
        ops.MatMul()(f16, f32)
    with pytest.raises(TypeError, match="BatchMatMul"):
        ops.BatchMatMul()(f32.reshape(1, 2, 2), f16.reshape(1, 2, 2))
    with pytest.raises(TypeError, match="MatMul"):
        ops.MatMul()(Tensor(np.ones((2, 2), bool)), Tensor(np.ones((2, 2), bool)))
    assert ops.MatMul()(i32, i32).dtype == ms.int32
    assert ops.BatchMatMul()(Tensor(np.ones((1, 2, 2)), ms.int64), Tensor(np.ones((1, 2, 2)), ms.int64)).dtype == ms.int64


ROWS = np.array([[3.0, NAN, 1.0, NAN, 2.0], [NAN, 0.0, -1.0, 5.0, NAN], [1.0, 2.0, 3.0, 4.0, 5.0]], np.float32)


def test_sort_and_argsort_place_nan_as_libstdcxx_stable_sort_does():
    values, indices = ops.sort(Tensor(ROWS))
    np.testing.assert_array_equal(indices.asnumpy(), [[2, 0, 1, 3, 4], [0, 2, 1, 3, 4], [0, 1, 2, 3, 4]])
    np.testing.assert_array_equal(values.asnumpy(), np.take_along_axis(ROWS, indices.asnumpy(), 1))
    _, indices = ops.sort(Tensor(ROWS), descending=True)
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 1, 3, 4, 2], [0, 3, 1, 2, 4], [4, 3, 2, 1, 0]])
    np.testing.assert_array_equal(ops.argsort(Tensor(ROWS)).asnumpy(), [[2, 0, 1, 3, 4], [0, 2, 1, 3, 4], [0, 1, 2, 3, 4]])
    np.testing.assert_array_equal(ops.Sort()(Tensor(ROWS))[1].asnumpy(), [[2, 0, 1, 3, 4], [0, 2, 1, 3, 4], [0, 1, 2, 3, 4]])
    row = _f32([NAN, 2.0, NAN, 1.0, 0.0])
    np.testing.assert_array_equal(ops.sort(row)[1].asnumpy(), [0, 1, 2, 4, 3])
    np.testing.assert_array_equal(ops.sort(row, descending=True)[1].asnumpy(), [0, 1, 2, 3, 4])
    np.testing.assert_array_equal(ops.sort(Tensor(ROWS.T), axis=0)[1].asnumpy().T,
                                  [[2, 0, 1, 3, 4], [0, 2, 1, 3, 4], [0, 1, 2, 3, 4]])


def test_sort_with_nan_compiles_and_differentiates():
    x = Tensor(ROWS[:1])
    _, indices = ms.jit(lambda a: ops.sort(a, descending=True))(x)
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 1, 3, 4, 2]])
    gradient = ms.grad(lambda a: ops.sort(a)[0][..., :2].sum())(x)
    np.testing.assert_array_equal(gradient.asnumpy(), [[1.0, 0.0, 1.0, 0.0, 0.0]])


def test_topk_with_nan_rows():
    values, indices = ops.topk(Tensor(ROWS), 3)
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 1, 3], [0, 3, 1], [4, 3, 2]])
    np.testing.assert_array_equal(values.asnumpy(), [[3.0, NAN, NAN], [NAN, 5.0, 0.0], [5.0, 4.0, 3.0]])
    _, indices = ops.topk(Tensor(ROWS), 3, largest=False)
    np.testing.assert_array_equal(indices.asnumpy(), [[2, 0, 1], [0, 2, 1], [0, 1, 2]])
    np.testing.assert_array_equal(ops.TopK()(Tensor(ROWS), 3)[1].asnumpy(), [[0, 1, 3], [0, 3, 1], [4, 3, 2]])


def test_signed_zeros_are_equal_in_sort_and_topk():
    zeros = _f32([0.0, -0.0, 0.0, -0.0])
    np.testing.assert_array_equal(ops.sort(zeros)[1].asnumpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(ops.sort(zeros, descending=True)[1].asnumpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(ops.topk(zeros, 4)[1].asnumpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(ops.topk(zeros, 2)[1].asnumpy(), [2, 3])


def test_long_rows_with_nan_and_ties_follow_the_replay():
    # positions recorded from MindSpore 2.10 for this 20-element row (values 0..5 and NaN)
    row = np.array([1, 5, NAN, 4, 1, 1, NAN, 5, 0, 2, NAN, 3, 3, 1, 0, 4, NAN, 2, 5, 0], np.float32)
    assert ops.sort(Tensor(row))[1].asnumpy().tolist() == [
        8, 0, 9, 1, 2, 4, 5, 3, 6, 7, 10, 14, 19, 13, 17, 11, 12, 15, 16, 18]
    assert ops.sort(Tensor(row), descending=True)[1].asnumpy().tolist() == [
        1, 7, 9, 0, 2, 3, 4, 5, 6, 8, 10, 18, 15, 11, 12, 17, 13, 14, 16, 19]


# rows: [9, 1, nan, 2], [nan, 5, 7, 8], [3, nan, nan, nan], [nan, nan, nan, 6]
POOL_INPUT = np.array([[[[9.0, 1.0, NAN, 2.0], [NAN, 5.0, 7.0, 8.0], [3.0, NAN, NAN, NAN],
                         [NAN, NAN, NAN, 6.0]]]], np.float32)
NAN_FREE_FIRST_MAXIMA = [[[[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]]]


def test_max_pool_folds_each_window_so_nan_wins_only_last():
    x = Tensor(POOL_INPUT)
    for pool in (nn.MaxPool2d(2, 2), ops.MaxPool(2, 2)):
        np.testing.assert_array_equal(pool(x).asnumpy(), [[[[5.0, 8.0], [NAN, 6.0]]]])
    np.testing.assert_array_equal(ops.MaxPool(3, 2, "same")(x).asnumpy(), [[[[NAN, NAN], [NAN, 6.0]]]])
    cube = Tensor(POOL_INPUT[:, :, None].repeat(2, 2))
    np.testing.assert_array_equal(ops.MaxPool3D(2, 2)(cube).asnumpy(), [[[[[5.0, 8.0], [NAN, 6.0]]]]])
    np.testing.assert_array_equal(nn.MaxPool1d(4, 4)(Tensor(POOL_INPUT[0])).asnumpy(), [[[2.0], [8.0], [NAN], [6.0]]])
    # MindSpore sends a NaN window's gradient to its first NaN-free maximum; sporax keeps the plain pool's
    # gradient (no branch in the backward pass), equal where a window holds no NaN
    clean = POOL_INPUT.copy()
    clean[np.isnan(clean)] = -1.0
    gradient = ms.grad(lambda a: nn.MaxPool2d(2, 2)(a).sum())(Tensor(clean))
    np.testing.assert_array_equal(gradient.asnumpy(), NAN_FREE_FIRST_MAXIMA)


def test_max_pool_pad_mode_gives_nan_for_any_nan_in_the_window():
    result = nn.MaxPool2d(2, 2, pad_mode="pad", padding=1)(Tensor(POOL_INPUT)).asnumpy()
    np.testing.assert_array_equal(result, [[[[9.0, NAN, 2.0], [NAN, NAN, NAN], [NAN, NAN, 6.0]]]])


def test_max_pool_rules_run_alike_op_by_op_and_compiled_and_an_eager_call_compiles_nothing():
    # Op by op (PyNative) the NaN branch is taken in Python; in a compiled program it is a cond. A cond applied
    # eagerly had been compiled again at every call (issue 26: ~60 ms each nn.MaxPool2d call in PyNative).
    compiles = []

    def listener(event, duration, **_):
        if event.endswith("backend_compile_duration"):
            compiles.append(event)

    clean = np.nan_to_num(POOL_INPUT, nan=-1.0)
    pools = (nn.MaxPool2d(2, 2), nn.MaxPool2d(2, 2, pad_mode="pad", padding=1))
    for pool in pools:
        for values in (POOL_INPUT, clean):
            compiled = ms.jit(lambda a, pool=pool: pool(a))(Tensor(values)).asnumpy()
            np.testing.assert_array_equal(pool(Tensor(values)).asnumpy(), compiled)
    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        for pool in pools:
            for values in (POOL_INPUT, clean):
                pool(Tensor(values)).asnumpy()
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)
    assert not compiles


def test_functional_max_pool2d_passes_nan_over():
    values, indices = ops.max_pool2d(Tensor(POOL_INPUT), 2, 2, return_indices=True)
    np.testing.assert_array_equal(values.asnumpy(), [[[[9.0, 8.0], [3.0, 6.0]]]])
    np.testing.assert_array_equal(indices.asnumpy(), [[[[0, 7], [8, 15]]]])
    np.testing.assert_array_equal(ops.max_pool2d(Tensor(POOL_INPUT), 2, 2).asnumpy(), [[[[9.0, 8.0], [3.0, 6.0]]]])
    gradient = ms.grad(lambda a: ops.max_pool2d(a, 2, 2).sum())(Tensor(POOL_INPUT))
    np.testing.assert_array_equal(gradient.asnumpy(), NAN_FREE_FIRST_MAXIMA)


def test_argmax_pools_keep_nan_only_first():
    x = Tensor(POOL_INPUT)
    values, indices = ops.MaxPoolWithArgmax(2, 2)(x)
    np.testing.assert_array_equal(values.asnumpy(), [[[[9.0, NAN], [3.0, NAN]]]])
    np.testing.assert_array_equal(indices.asnumpy(), [[[[0, 2], [8, 10]]]])
    values, indices = ops.adaptive_max_pool2d(x, (2, 2), True)
    np.testing.assert_array_equal(values.asnumpy(), [[[[9.0, NAN], [3.0, NAN]]]])
    np.testing.assert_array_equal(indices.asnumpy(), [[[[0, 2], [8, 10]]]])
    np.testing.assert_array_equal(nn.AdaptiveMaxPool2d((2, 2))(x).asnumpy(), [[[[9.0, NAN], [3.0, NAN]]]])
    gradient = ms.grad(lambda a: ops.adaptive_max_pool2d(a, (2, 2)).sum())(x)
    np.testing.assert_array_equal(gradient.asnumpy(),
                                  [[[[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 1.0, 0.0], [0.0] * 4]]])


def test_hardtanh_clip_by_norm_cummax_and_msort_with_nan():
    x = _f32([1.0, NAN, 3.0, 0.0, 5.0, NAN, 2.0])
    np.testing.assert_array_equal(ops.hardtanh(x, -1.0, 1.0).asnumpy(), [1.0, -1.0, 1.0, 0.0, 1.0, -1.0, 1.0])
    gradient = ms.grad(lambda a: ops.hardtanh(a).sum())(_f32([-1.0, 1.0, 0.5, -2.0, 2.0, NAN]))
    np.testing.assert_array_equal(gradient.asnumpy(), [0.5, 0.5, 1.0, 0.0, 0.0, 1.0])
    # the norm is NaN, so MindSpore's minimum leaves the scale at 1
    np.testing.assert_array_equal(ops.clip_by_norm(x, 1.0).asnumpy(), [1.0, NAN, 3.0, 0.0, 5.0, NAN, 2.0])
    for op in (ops.cummax, ops.cummin):
        values, indices = op(x, 0)
        np.testing.assert_array_equal(values.asnumpy(), [1.0] + [NAN] * 6)
        np.testing.assert_array_equal(indices.asnumpy(), [0, 1, 1, 1, 1, 5, 5])
    np.testing.assert_array_equal(ops.msort(_f32([[NAN, 1.0], [2.0, NAN], [0.0, 3.0]])).asnumpy(),
                                  [[NAN, 1.0], [0.0, NAN], [2.0, 3.0]])
