"""Ops that MindSpore 2.10 cannot run on CPU (Ascend-only or missing CPU kernels), checked
against NumPy reference computations; gradients against finite differences; in-place semantics; errors."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, ops

RS = np.random.RandomState(1)


def _f32(*shape):
    return RS.rand(*shape).astype(np.float32)


# --- gradients ------------------------------------------------------------------------------------
# Bessel gradients: the op test table (tests/ops/test_op_table.py) checks every bessel_* entry.
def test_fft_and_linalg_gradients():
    x = Tensor(_f32(6).astype(np.float64))
    analytic = ops.grad(lambda t: ops.sum(ops.abs(ops.fft(t)) ** 2))(x).asnumpy()
    np.testing.assert_allclose(analytic, 2 * 6 * x.asnumpy(), rtol=1e-6)  # Parseval
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    analytic = ops.grad(lambda t: ops.det(t))(Tensor(a)).asnumpy()
    np.testing.assert_allclose(analytic, np.linalg.det(a) * np.linalg.inv(a).T, rtol=1e-6)


# --- optimizer rules MindSpore's CPU build lacks --------------------------------------------------
def test_apply_keras_momentum_and_adagrad_without_slot_update():
    g = np.array([0.5, -1.0, 2.0], np.float32)
    for nesterov in (False, True):
        var, accum = Parameter(Tensor(np.array([1.0, 2, 3], np.float32))), Parameter(Tensor(np.full(3, 0.1, np.float32)))
        ops.ApplyKerasMomentum(use_nesterov=nesterov)(var, accum, Tensor(0.01), Tensor(g), Tensor(0.9))
        new_accum = 0.1 * 0.9 - 0.01 * g
        step = new_accum * 0.9 - 0.01 * g if nesterov else new_accum
        np.testing.assert_allclose(accum.asnumpy(), new_accum, rtol=1e-6)
        np.testing.assert_allclose(var.asnumpy(), np.array([1.0, 2, 3]) + step, rtol=1e-6)
    var, accum = Parameter(Tensor(np.array([1.0, 2, 3], np.float32))), Parameter(Tensor(np.full(3, 0.5, np.float32)))
    ops.ApplyAdagrad(update_slots=False)(var, accum, Tensor(0.1), Tensor(g))
    np.testing.assert_allclose(accum.asnumpy(), 0.5)
    np.testing.assert_allclose(var.asnumpy(), np.array([1.0, 2, 3]) - 0.1 * g / np.sqrt(0.5), rtol=1e-6)


def test_update_ops_need_parameters():
    with pytest.raises(TypeError, match="ApplyAdagrad.*Parameter"):
        ops.ApplyAdagrad()(1.0, Tensor(np.ones(2, np.float32)), 0.1, Tensor(np.ones(2, np.float32)))


# --- element-wise and products --------------------------------------------------------------------
def test_fmin_baddbmm_ext_einsum_ext():
    a, b = np.array([1.0, np.nan, 3.0], np.float32), np.array([2.0, 3.0, np.nan], np.float32)
    np.testing.assert_array_equal(ops.Fmin()(Tensor(a), Tensor(b)).asnumpy(), np.fmin(a, b))
    x, y, base = _f32(2, 3, 4), _f32(2, 4, 5), _f32(2, 3, 5)
    np.testing.assert_allclose(ops.baddbmm_ext(Tensor(base), Tensor(x), Tensor(y), beta=0.5, alpha=2).asnumpy(),
                               0.5 * base + 2 * x @ y, rtol=1e-5)
    np.testing.assert_allclose(ops.einsum_ext("bij,bjk->bik", Tensor(x), Tensor(y)).asnumpy(), x @ y, rtol=1e-5)


def test_count_nonzero_euclidean_norm_histogram_fixed_width():
    x = np.array([[1.0, 0.0, 3.0], [0.0, 5.0, 2.0]], np.float32)
    assert ops.CountNonZero()(Tensor(x)).asnumpy().item() == 4
    np.testing.assert_array_equal(ops.CountNonZero(dims=1)(Tensor(x)).asnumpy(), [2, 2])
    np.testing.assert_allclose(ops.EuclideanNorm(True)(Tensor(x), Tensor(np.array([1], np.int32))).asnumpy(),
                               np.linalg.norm(x, axis=1, keepdims=True), rtol=1e-6)
    values = np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], np.float32)
    out = ops.HistogramFixedWidth(5)(Tensor(values), Tensor(np.array([0.0, 5.0], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [2, 1, 1, 0, 2])


# --- nn ops MindSpore's CPU build lacks -----------------------------------------------------------
def test_depthwise_conv2d_native_matches_loops():
    x, w = _f32(1, 2, 5, 5), _f32(1, 2, 3, 3)
    out = ops.DepthwiseConv2dNative(1, 3)(Tensor(x), Tensor(w)).asnumpy()
    expected = np.zeros((1, 2, 3, 3), np.float32)
    for c in range(2):
        for i in range(3):
            for j in range(3):
                expected[0, c, i, j] = (x[0, c, i:i + 3, j:j + 3] * w[0, c]).sum()
    np.testing.assert_allclose(out, expected, rtol=1e-5)


@pytest.mark.parametrize("pad_mode", ["VALID", "SAME"])
def test_dilation2d_matches_loops(pad_mode):
    x, f = _f32(1, 2, 4, 5), _f32(2, 2, 2)
    out = ops.Dilation2D((1, 1, 1, 1), (1, 1, 1, 1), pad_mode)(Tensor(x), Tensor(f)).asnumpy()
    padded = np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)), constant_values=-np.inf) if pad_mode == "SAME" else x
    rows, cols = (4, 5) if pad_mode == "SAME" else (3, 4)
    expected = np.array([[[[np.max(padded[0, c, i:i + 2, j:j + 2] + f[c]) for j in range(cols)] for i in range(rows)]
                          for c in range(2)]], np.float32)
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def _attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2)
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return (weights / weights.sum(-1, keepdims=True)) @ v


def test_flash_attention_score_user_mask_and_inference_errors():
    # layouts, grouped heads, sparse modes and the inference ops' values: the op table (attention_samples.py)
    q, k, v = _f32(2, 4, 3, 8), _f32(2, 2, 5, 8), _f32(2, 2, 5, 8)  # BNSD, 4 query heads over 2 kv heads
    kr, vr = np.repeat(k, 2, axis=1), np.repeat(v, 2, axis=1)
    user_mask = RS.rand(3, 5) > 0.6
    user_mask[:, 0] = False
    masked = ops.flash_attention_score(Tensor(q), Tensor(k), Tensor(v), 4, attn_mask=Tensor(user_mask.astype(np.uint8)),
                                       input_layout="BNSD")
    np.testing.assert_allclose(masked.asnumpy(), _attention(q, kr, vr, user_mask), rtol=1e-5, atol=1e-6)
    bsh = lambda a: np.swapaxes(a, 1, 2).reshape(a.shape[0], a.shape[2], -1)  # noqa: E731
    with pytest.raises(NotImplementedError, match="block_table"):
        ops.incre_flash_attention(Tensor(bsh(q[:, :, :1])), Tensor(bsh(k)), Tensor(bsh(v)),
                                  block_table=Tensor(np.zeros(1)))
    # MindSpore's documented form: key and value as lists of Tensors (one per batch row: joined on B)
    query, kv_keys, kv_values = Tensor(bsh(q[:, :, :1])), bsh(k), bsh(v)
    listed = ops.incre_flash_attention(query, [Tensor(kv_keys[:1]), Tensor(kv_keys[1:])],
                                       (Tensor(kv_values[:1]), Tensor(kv_values[1:])), num_heads=4,
                                       num_key_value_heads=2)
    np.testing.assert_allclose(listed.asnumpy(), bsh(_attention(q[:, :, :1], kr, vr)),
                               rtol=1e-5, atol=1e-6)
    with pytest.raises(NotImplementedError, match="'key' list of Tensors of different shapes"):
        ops.incre_flash_attention(query, [Tensor(kv_keys[:1]), Tensor(kv_keys[1:, :4])],
                                  [Tensor(kv_values[:1]), Tensor(kv_values[1:, :4])], num_heads=4)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_lstm_and_gru_primitives_match_numpy_loops():
    steps, batch, size, hidden = 3, 2, 4, 5
    x, w, b = _f32(steps, batch, size), _f32(size + hidden, 4 * hidden) - 0.5, _f32(4 * hidden) - 0.5
    h, c = np.zeros((batch, hidden), np.float32), np.zeros((batch, hidden), np.float32)
    outputs = ops.DynamicRNN(forget_bias=1.0)(Tensor(x), Tensor(w), Tensor(b), None, Tensor(h[None]), Tensor(c[None]))
    for t in range(steps):
        i, j, f, o = np.split(np.concatenate([x[t], h], -1) @ w + b, 4, axis=-1)
        c = _sigmoid(f + 1.0) * c + _sigmoid(i) * np.tanh(j)
        h = _sigmoid(o) * np.tanh(c)
        np.testing.assert_allclose(outputs[0].asnumpy()[t], h, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(outputs[2].asnumpy()[t], c, rtol=1e-5, atol=1e-6)
    ct, ht = ops.BasicLSTMCell(forget_bias=1.0)(Tensor(x[0]), Tensor(np.zeros((batch, hidden), np.float32)),
                                                Tensor(np.zeros((batch, hidden), np.float32)), Tensor(w), Tensor(b))[:2]
    np.testing.assert_allclose(ht.asnumpy(), outputs[0].asnumpy()[0], rtol=1e-5, atol=1e-6)
    w_in, w_hid, b_in, b_hid = _f32(size, 3 * hidden), _f32(hidden, 3 * hidden), _f32(3 * hidden), _f32(3 * hidden)
    h = np.zeros((batch, hidden), np.float32)
    gru = ops.DynamicGRUV2()(Tensor(x), Tensor(w_in), Tensor(w_hid), Tensor(b_in), Tensor(b_hid), None,
                             Tensor(h[None]))
    for t in range(steps):
        r_x, z_x, n_x = np.split(x[t] @ w_in + b_in, 3, -1)
        r_h, z_h, n_h = np.split(h @ w_hid + b_hid, 3, -1)
        r, z = _sigmoid(r_x + r_h), _sigmoid(z_x + z_h)
        h = (1 - z) * np.tanh(n_x + r * n_h) + z * h
        np.testing.assert_allclose(gru[0].asnumpy()[t], h, rtol=1e-5, atol=1e-6)


def test_confusion_matrix_and_accidental_hits():
    matrix = ops.ConfusionMatrix(4)(Tensor(np.array([0, 1, 1, 3], np.int32)), Tensor(np.array([0, 2, 1, 3], np.int32)))
    expected = np.zeros((4, 4), np.int32)
    np.add.at(expected, ([0, 1, 1, 3], [0, 2, 1, 3]), 1)
    np.testing.assert_array_equal(matrix.asnumpy(), expected)
    rows, ids, weights = ops.ComputeAccidentalHits(2)(Tensor(np.array([[1, 2], [0, 4], [3, 3]], np.int64)),
                                                      Tensor(np.array([0, 1, 2, 3, 4], np.int64)))
    assert list(zip(rows.asnumpy(), ids.asnumpy())) == [(0, 1), (0, 2), (1, 0), (1, 4), (2, 3)]
    assert (weights.asnumpy() == np.finfo(np.float32).min).all()


# --- random ops: shapes and statistics ------------------------------------------------------------
def test_random_ops_shapes_and_statistics():
    ms.set_seed(3)
    # one shape for the function and the Primitive: each shape compiles a gamma sampler (3-4 CPU s)
    alpha, beta = Tensor(np.full((2, 2), 2.0, np.float32)), Tensor(np.full((1, 2), 4.0, np.float32))
    sample = ops.gamma((1000, 1, 2), alpha, beta)
    assert sample.shape == (1000, 2, 2)
    assert abs(sample.asnumpy().mean() - 0.5) < 0.05 and (sample.asnumpy() > 0).all()
    assert ops.Gamma()((1000, 1, 2), alpha, beta).shape == (1000, 2, 2)
    mask = ops.DropoutGenMask()((2, 100), Tensor(0.5))
    assert mask.shape == (32,) and mask.dtype == ms.uint8
    out = ops.DropoutDoMask()(Tensor(np.ones((2, 100), np.float32)), mask, Tensor(0.5)).asnumpy()
    assert set(np.unique(out)) <= {0.0, 2.0} and 0.3 < (out > 0).mean() < 0.7
    kept = ops.DropoutDoMask()(Tensor(np.ones(10, np.float32)), ops.DropoutGenMask()((10,), Tensor(1.0)), Tensor(1.0))
    np.testing.assert_array_equal(kept.asnumpy(), 1.0)
    x = Tensor(np.zeros(2000, np.float32))
    assert ops.exponential_(x, 4.0) is x and abs(x.asnumpy().mean() - 0.25) < 0.03
    np.testing.assert_array_equal(ops.bernoulli_(Tensor(np.zeros(3, np.float32)), 1.0).asnumpy(), 1.0)
    np.testing.assert_array_equal(ops.bernoulli_ext(Tensor(np.array([0.0, 1.0], np.float32))).asnumpy(), [0, 1])
    y = Tensor(np.zeros(5, np.float32))
    assert y.cauchy() is y and np.isfinite(y.asnumpy()).all()


# --- in-place semantics ---------------------------------------------------------------------------
def test_in_place_functions_and_methods():
    x = Tensor(np.array([-2.0, 0.5], np.float32))
    # (values of clamp_, inplace_sigmoid, erfinv_: the op table; here that the input itself is returned)
    assert ops.clamp_(x, -1.0, 1.0) is x and x.asnumpy().tolist() == [-1.0, 0.5]
    assert ops.inplace_sigmoid(x) is x and ops.erfinv_(x) is x
    m = Tensor(np.zeros((2, 3), np.float32))
    m.index_add_(1, Tensor(np.array([0, 0], np.int32)), Tensor(np.ones((2, 2), np.float32)), alpha=2)
    np.testing.assert_array_equal(m.asnumpy(), [[4, 0, 0], [4, 0, 0]])
    m.index_copy_(1, Tensor(np.array([2], np.int32)), Tensor(np.full((2, 1), 7.0, np.float32)))
    m.index_put_((Tensor(np.array([1], np.int32)), Tensor(np.array([1], np.int32))), Tensor(np.array([5.0], np.float32)))
    m.fill_diagonal_(-1.0)
    np.testing.assert_array_equal(m.asnumpy(), [[-1, 0, 7], [4, -1, 7]])
    a = Tensor(np.ones((2, 2), np.float32))
    a.addmm_(Tensor(np.eye(2, dtype=np.float32)), Tensor(np.full((2, 2), 2.0, np.float32)), beta=0.5)
    np.testing.assert_array_equal(a.asnumpy(), np.full((2, 2), 2.5))
    before = m.asnumpy().copy()
    m.itemset(0, 9.0)
    np.testing.assert_array_equal(m.asnumpy(), before)  # itemset returns a copy, as in MindSpore 2.10


# --- errors ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("call,error,match", [
    (lambda: ops.bessel_j0(Tensor(np.array([1, 2], np.int32))), TypeError, "bessel_j0"),
    (lambda: ops.hann_window(-1), ValueError, "window_length"),
    (lambda: ops.fft(Tensor(np.ones(4, np.float32)), norm="bad"), ValueError, "norm"),
    (lambda: ops.cholesky(Tensor(np.ones((2, 3), np.float32))), ValueError, "square"),
    (lambda: ops.gcd(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32))), TypeError, "gcd"),
    (lambda: ops.grid_sample(Tensor(np.ones((1, 1, 2, 2), np.float32)), Tensor(np.zeros((1, 1, 1, 2), np.float32)),
                             "bicubic"), ValueError, "bicubic"),  # MindSpore 2.10 rejects it too (ValueError)
    (lambda: ops.CheckNumerics()(Tensor(np.array([np.inf], np.float32))), RuntimeError, "Inf"),
    (lambda: ops.Assert()(Tensor(np.array(False)), [Tensor(np.array([1.0, 2.0]))]), RuntimeError, "condition"),
    (lambda: ops.fold(Tensor(np.ones((1, 4, 5), np.float32)), (3, 3), 2), ValueError, "blocks"),
    (lambda: ops.combinations(Tensor(np.ones((2, 2), np.float32))), ValueError, "1-D"),
    (lambda: ops.flash_attention_score(Tensor(np.ones((1, 2, 6), np.float32)), Tensor(np.ones((1, 2, 6), np.float32)),
                                       Tensor(np.ones((1, 2, 6), np.float32)), 4), ValueError, "head_num"),
])
def test_bad_input_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("pseudo_random,overlapping", [(False, False), (True, True)])
def test_tensorflow_style_fractional_pooling(pseudo_random, overlapping):
    x = _f32(1, 7, 8, 2)
    for primitive, reduce in ((ops.FractionalMaxPool, np.max), (ops.FractionalAvgPool, np.mean)):
        y, rows, cols = primitive([1.0, 1.5, 1.7, 1.0], pseudo_random, overlapping, True, 1, 2)(Tensor(x))
        rows, cols = rows.asnumpy(), cols.asnumpy()
        assert y.shape == (1, 4, 4, 2) and rows[0] == 0 and rows[-1] == 7 and cols[-1] == 8
        assert set(np.diff(rows)) <= {1, 2} and set(np.diff(cols)) <= {2}
        extra = 1 if overlapping else 0
        expected = np.array([[reduce(x[0, rows[i]:rows[i + 1] + extra, cols[j]:cols[j + 1] + extra], axis=(0, 1))
                              for j in range(4)] for i in range(4)])
        np.testing.assert_allclose(y.asnumpy()[0], expected, rtol=1e-6)
