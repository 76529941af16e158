"""sporax.mint where MindSpore 2.10 has no CPU kernel (so no recorded value): against NumPy references
of PyTorch's documented semantics, over the recording's inputs; plus gradients and both modes."""
import json
import math
import pathlib

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view as windows

import sporax as ms
from sporax import mint
from tests.mint.test_mint_oracle import _ramp, init

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "numpy_mint" / "mint.json").read_text())
ARRAYS = {name: eval(text, {"np": np}) for name, text in FIXTURE["inputs"].items()}
SCOPE = {"mint": mint, "F": mint.nn.functional, "nn": mint.nn, "init": init}
SCOPE.update({name: ms.Tensor(value) for name, value in ARRAYS.items()})
globals().update({f"n_{name}": value for name, value in ARRAYS.items()})
erf = np.vectorize(math.erf)


def softmax(a, axis):
    e = np.exp(a - a.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def conv(a, weight, stride=1, padding=0, groups=1):
    """Cross-correlation of (N, C, *S) with (O, C / groups, *K), as PyTorch's convNd."""
    dims = a.ndim - 2
    a = np.pad(a, [(0, 0), (0, 0)] + [(padding, padding)] * dims)
    per_group_in, per_group_out = a.shape[1] // groups, weight.shape[0] // groups
    outputs = []
    for g in range(groups):
        view = windows(a[:, g * per_group_in:(g + 1) * per_group_in], weight.shape[2:], axis=tuple(range(2, 2 + dims)))
        view = view[(slice(None), slice(None)) + (slice(None, None, stride),) * dims]
        kernel = weight[g * per_group_out:(g + 1) * per_group_out]
        outputs.append(np.tensordot(view, kernel, axes=([1] + list(range(2 + dims, 2 + 2 * dims)),
                                                         [1] + list(range(2, 2 + dims)))))
    return np.moveaxis(np.concatenate(outputs, -1), -1, 1)


def pool(a, kernel, stride, reduce):
    dims = len(kernel)
    view = windows(a, kernel, axis=tuple(range(a.ndim - dims, a.ndim)))
    view = view[(slice(None),) * (a.ndim - dims) + (slice(None, None, stride),) * dims]
    return reduce(view, axis=tuple(range(a.ndim, a.ndim + dims)))


def cross_entropy(logits, target, weight=None, smoothing=0.0):
    log_p = np.log(softmax(logits, 1))
    classes = logits.shape[1]
    weight = np.ones(classes, np.float32) if weight is None else weight
    picked = -log_p[np.arange(len(target)), target] * weight[target]
    smooth = -(log_p * weight).sum(1) / classes
    return ((1 - smoothing) * picked + smoothing * smooth).sum() / weight[target].sum()


x, y, p, v, w, m, k, i, t = n_x, n_y, n_p, n_v, n_w, n_m, n_k, n_i, n_t  # noqa: F821 (set above)
img, seq, vol, b3, bm1, bm2, idx, lab = n_img, n_seq, n_vol, n_b3, n_bm1, n_bm2, n_idx, n_lab  # noqa: F821

REFERENCES = {
    "mint.exp2(x)": lambda: np.exp2(x), "mint.log2(w)": lambda: np.log2(w), "mint.log10(w)": lambda: np.log10(w),
    "mint.asin(p)": lambda: np.arcsin(p), "mint.acos(p)": lambda: np.arccos(p), "mint.atan(x)": lambda: np.arctan(x),
    "mint.atan2(x, y)": lambda: np.arctan2(x, y), "mint.atanh(p)": lambda: np.arctanh(p),
    "mint.erf(x)": lambda: erf(x), "mint.frac(x)": lambda: x - np.trunc(x),
    "mint.round(x, decimals=1)": lambda: np.round(x, 1), "mint.logaddexp(x, y)": lambda: np.logaddexp(x, y),
    "mint.addcdiv(x, y, w, value=0.5)": lambda: x + 0.5 * y / w, "mint.bitwise_not(i)": lambda: ~i,
    "mint.bitwise_and(i, 3)": lambda: i & 3, "mint.gcd(i, mint.full_like(i, 6))": lambda: np.gcd(i, 6),
    "mint.isneginf(mint.log(x))": lambda: np.isneginf(np.log(np.where(x > 0, x, 0))) & (x == 0),
    "mint.argmax(x, 1, True)": lambda: np.argmax(x, 1)[:, None], "mint.argmin(x, 0)": lambda: np.argmin(x, 0),
    "mint.std(x, 1)": lambda: np.std(x, 1, ddof=1), "mint.std(x, 1, correction=0)": lambda: np.std(x, 1),
    "mint.var(x, 0, keepdim=True)": lambda: np.var(x, 0, ddof=1, keepdims=True),
    "mint.median(x)": lambda: np.sort(x.ravel())[(x.size - 1) // 2],
    "mint.logsumexp(x, 1)": lambda: np.log(np.exp(x).sum(1)), "mint.count_nonzero(i, 1)": lambda: (i != 0).sum(1),
    "mint.cumsum(x, 1)": lambda: np.cumsum(x, 1), "mint.norm(x)": lambda: np.sqrt((x ** 2).sum()),
    "mint.norm(x, 1)": lambda: np.abs(x).sum(), "mint.norm(x, 2, 1)": lambda: np.sqrt((x ** 2).sum(1)),
    "mint.trace(m)": lambda: np.trace(m), "mint.sort(x, descending=True)": lambda: (-np.sort(-x, -1),),
    "mint.topk(x, 2, 1, False)": lambda: (np.sort(x, 1)[:, :2],), "mint.argsort(x, 0, True)": lambda: np.argsort(-x, 0),
    "mint.histc(w, 4, 0, 4)": lambda: np.histogram(w, 4, (0, 4))[0], "mint.bincount(k)": lambda: np.bincount(k),
    "mint.kthvalue(x, 2, 1)": lambda: (np.sort(x, 1)[:, 1],), "mint.stack((x, y), 1)": lambda: np.stack((x, y), 1),
    "mint.roll(x, 1, 1)": lambda: np.roll(x, 1, 1), "mint.repeat_interleave(x, 2, 0)": lambda: np.repeat(x, 2, 0),
    "mint.tril(m)": lambda: np.tril(m), "mint.diag(m, 1)": lambda: np.diag(m, 1),
    "mint.index_select(x, 1, k)": lambda: x[:, k], "mint.take(x, k)": lambda: x.ravel()[k],
    "mint.scatter_add(x, 1, idx, y)": lambda: _scatter_add(), "mint.index_add(x, 1, k, y)": lambda: _index_add(),
    "mint.arange(1, 3, 0.5)": lambda: np.arange(1, 3, 0.5), "mint.eye(2, 3)": lambda: np.eye(2, 3),
    "mint.mm(x, m)": lambda: x @ m, "mint.mv(m, v)": lambda: m @ v, "mint.outer(v, w)": lambda: np.outer(v, w),
    "mint.einsum('ij,jk->ik', x, m)": lambda: x @ m,
    "mint.addmm(mint.ones((2, 3)), x, m, beta=0.5, alpha=2)": lambda: 0.5 + 2 * x @ m,
    "mint.addbmm(mint.ones((2, 2)), bm1, bm2)": lambda: 1 + (bm1 @ bm2).sum(0),
    "mint.baddbmm(mint.ones((3, 2, 2)), bm1, bm2, alpha=0.5)": lambda: 1 + 0.5 * bm1 @ bm2,
    "mint.inverse(m)": lambda: np.linalg.inv(m), "mint.cross(x, y)": lambda: np.cross(x, y),
    "mint.triangular_solve(m, mint.triu(m))": lambda: (np.linalg.solve(np.triu(m), m),),
    "mint.linalg.qr(m)": lambda: (None, np.abs(np.linalg.qr(m)[1])),
    "F.relu6(x * 3)": lambda: np.clip(3 * x, 0, 6), "F.silu(x)": lambda: x / (1 + np.exp(-x)),
    "F.gelu(x)": lambda: 0.5 * x * (1 + erf(x / np.sqrt(2))), "F.elu(x, 0.5)": lambda: np.where(x > 0, x, 0.5 * np.expm1(x)),
    "F.leaky_relu(x)": lambda: np.where(x > 0, x, 0.01 * x), "F.hardtanh(x, -0.5, 0.5)": lambda: np.clip(x, -0.5, 0.5),
    "F.logsigmoid(x)": lambda: -np.log1p(np.exp(-x)), "F.softmax(x, 0)": lambda: softmax(x, 0),
    "F.log_softmax(x, 1)": lambda: np.log(softmax(x, 1)),
    "F.glu(mint.cat((x, y), 1))": lambda: x / (1 + np.exp(-y)), "F.threshold(x, 0.6, -1.0)": lambda: np.where(x > 0.6, x, -1.0),
    "F.normalize(x, 1.0, 0)": lambda: x / np.abs(x).sum(0), "F.one_hot(k, 4)": lambda: np.eye(4)[k],
    "F.pad(x, (1, 1, 1, 0), value=9.0)": lambda: np.pad(x, ((1, 0), (1, 1)), constant_values=9),
    "F.pad(img, (1, 1), 'reflect')": lambda: np.pad(img, ((0, 0),) * 3 + ((1, 1),), "reflect"),
    "F.pad(img, (1, 1, 2, 0), 'replicate')": lambda: np.pad(img, ((0, 0), (0, 0), (2, 0), (1, 1)), "edge"),
    "F.mse_loss(x, y, 'none')": lambda: (x - y) ** 2, "F.cross_entropy(x, lab)": lambda: cross_entropy(x, lab),
    "F.cross_entropy(x, lab, w, reduction='sum')": lambda: cross_entropy(x, lab, w) * w[lab].sum(),
    "F.cross_entropy(x, p)": lambda: -(p * np.log(softmax(x, 1))).sum(1).mean(),
    "F.cross_entropy(x, lab, label_smoothing=0.1)": lambda: cross_entropy(x, lab, smoothing=0.1),
    "F.kl_div(x, p, 'batchmean')": lambda: (p * (np.log(p) - x)).sum() / 2,
    "F.kl_div(x, x, log_target=True)": lambda: np.zeros(()),
    "F.soft_margin_loss(x, mint.sign(y))": lambda: np.log1p(np.exp(-np.sign(y) * x)).mean(),
    "F.avg_pool2d(img, 2)": lambda: pool(img, (2, 2), 2, np.mean),
    "F.avg_pool1d(seq, 2)": lambda: pool(seq, (2,), 2, np.mean), "F.avg_pool3d(vol, 2)": lambda: pool(vol, (2, 2, 2), 2, np.mean),
    "F.max_pool2d(img, 2)": lambda: pool(img, (2, 2), 2, np.max),
    "F.max_pool2d(img, 3, 1, 1)": lambda: pool(np.pad(img, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf),
                                                (3, 3), 1, np.max),
    "F.adaptive_avg_pool2d(img, (2, 3))": lambda: np.stack([np.stack([img[:, :, r:r + 2, c:c + 2].mean((2, 3))
                                                                       for c in (0, 1, 2)], -1) for r in (0, 2)], -2),
    "F.adaptive_avg_pool3d(vol, 2)": lambda: pool(vol, (2, 2, 2), 2, np.mean),
    "F.adaptive_max_pool1d(seq, 3)": lambda: np.stack([seq[..., 0:3].max(-1), seq[..., 2:6].max(-1),
                                                        seq[..., 5:8].max(-1)], -1),
    "F.conv2d(img, mint.ones((3, 2, 2, 2)) * 0.1)": lambda: conv(img, np.full((3, 2, 2, 2), 0.1, np.float32)),
    "F.conv2d(img, mint.ones((2, 1, 3, 3)) * 0.1, v[:2], 2, 1, 1, 2)":
        lambda: conv(img, np.full((2, 1, 3, 3), 0.1, np.float32), 2, 1, 2) + v[:2, None, None],
    "F.conv1d(seq, mint.ones((3, 2, 3)) * 0.1)": lambda: conv(seq, np.full((3, 2, 3), 0.1, np.float32)),
    "F.conv3d(vol, mint.ones((2, 1, 2, 2, 2)) * 0.1)": lambda: conv(vol, np.full((2, 1, 2, 2, 2), 0.1, np.float32)),
    "F.layer_norm(x, (3,), w, v)": lambda: (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5) * w + v,
    "F.batch_norm(img, mint.zeros(2), mint.ones(2))": lambda: img / np.sqrt(1 + 1e-5),
    "F.batch_norm(img, mint.zeros(2), mint.ones(2), training=True)":
        lambda: (img - img.mean((0, 2, 3), keepdims=True)) / np.sqrt(img.var((0, 2, 3), keepdims=True) + 1e-5),
    "F.unfold(img, 2)": lambda: windows(img, (2, 2), (2, 3)).transpose(0, 1, 4, 5, 2, 3).reshape(1, 8, 9),
    "F.fold(F.unfold(img, 2), (4, 4), 2)": lambda: img * np.array([[1, 2, 2, 1], [2, 4, 4, 2], [2, 4, 4, 2], [1, 2, 2, 1]]),
    "F.max_unpool2d(F.max_pool2d(img, 2, return_indices=True)[0], F.max_pool2d(img, 2, return_indices=True)[1], 2)":
        lambda: np.where(img == np.repeat(np.repeat(pool(img, (2, 2), 2, np.max), 2, 2), 2, 3), img, 0),
    "F.grid_sample(img, mint.zeros((1, 2, 2, 2)) + 0.25)": lambda: _bilinear(),
    "nn.GELU('tanh')(x)": lambda: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))),
    "nn.SELU()(x)": lambda: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x)),
    "nn.Mish()(x)": lambda: x * np.tanh(np.log1p(np.exp(x))), "nn.LogSoftmax(1)(x)": lambda: np.log(softmax(x, 1)),
    "nn.Threshold(0.6, -1.0)(x)": lambda: np.where(x > 0.6, x, -1.0),
    "nn.ZeroPad1d((1, 2))(seq)": lambda: np.pad(seq, ((0, 0), (0, 0), (1, 2))),
    "nn.ConstantPad3d(1, 3.5)(vol)": lambda: np.pad(vol, ((0, 0), (0, 0)) + ((1, 1),) * 3, constant_values=3.5),
    "nn.ReflectionPad2d((1, 1, 2, 0))(img)": lambda: np.pad(img, ((0, 0), (0, 0), (2, 0), (1, 1)), "reflect"),
    "nn.ReplicationPad1d(2)(seq)": lambda: np.pad(seq, ((0, 0), (0, 0), (2, 2)), "edge"),
    "nn.L1Loss('sum')(x, y)": lambda: np.abs(x - y).sum(), "nn.KLDivLoss()(x, p)": lambda: (p * (np.log(p) - x)).mean(),
    "nn.AvgPool1d(2)(seq)": lambda: pool(seq, (2,), 2, np.mean),
    "init(nn.Conv2d(2, 3, 3))(img)": lambda: conv(img, _ramp((3, 2, 3, 3))) + _ramp((3,))[:, None, None],
    "init(nn.Conv1d(2, 3, 3, padding=1))(seq)": lambda: conv(seq, _ramp((3, 2, 3)), padding=1) + _ramp((3,))[:, None],
    # A Cell starts in evaluation mode in MindSpore (training=False): set_train() for batch statistics.
    "init(nn.BatchNorm2d(2)).set_train()(img)": lambda: (img - img.mean((0, 2, 3), keepdims=True)) / np.sqrt(
        img.var((0, 2, 3), keepdims=True) + 1e-5) * (_ramp((2,)) + 1)[:, None, None] + _ramp((2,))[:, None, None],
}


def _scatter_add():
    out = x.copy()
    for r in range(idx.shape[0]):
        for c in range(idx.shape[1]):
            out[r, idx[r, c]] += y[r, c]
    return out


def _index_add():
    out = x.copy()
    for column, target in enumerate(k):
        out[:, target] += y[:, column]
    return out


def _bilinear():
    # grid (0.25, 0.25) with align_corners=False on a 4x4 image lands on pixel coordinate (2.0, 2.0).
    return np.broadcast_to(img[:, :, 2, 2][:, :, None, None], (1, 2, 2, 2))


def _first(result):
    return result[0] if isinstance(result, (tuple, list)) else result


# The default run checks every other reference, the slow run all of them.
@pytest.mark.parametrize("call", [pytest.param(call, marks=[pytest.mark.slow] if index % 2 else [])
                                  for index, call in enumerate(sorted(REFERENCES))])
def test_matches_numpy_reference(call):
    expected = REFERENCES[call]()
    result = eval(call, SCOPE)
    if call == "mint.linalg.qr(m)":  # Q and R are unique up to signs
        q, r = result
        np.testing.assert_allclose(np.abs(r.asnumpy()), expected[1], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(q.asnumpy() @ r.asnumpy(), m, rtol=1e-5, atol=1e-5)
        return
    if isinstance(expected, tuple):
        expected, result = expected[0], _first(result)
    np.testing.assert_allclose(result.asnumpy().astype(np.float64), np.asarray(expected, np.float64), rtol=2e-5,
                               atol=2e-5, err_msg=call)


@pytest.mark.slow
def test_every_kernel_gap_call_runs():
    """Each call MindSpore could not run on CPU runs here and gives finite values (shapes are checked
    against NumPy above for the referenced ones)."""
    failures = []
    for call, expected in FIXTURE["calls"].items():
        if expected.get("error") not in ("RuntimeError", "NotImplementedError") or call in REFERENCES:
            continue
        try:
            for item in (lambda r: r if isinstance(r, (tuple, list)) else (r,))(eval(call, SCOPE)):
                # (log of negatives, and BatchNorm evaluated with init's negative running variance, give NaN)
                if isinstance(item, ms.Tensor) and item.dtype != ms.bool_ and "log" not in call \
                        and "BatchNorm" not in call:
                    assert np.isfinite(item.asnumpy().astype(np.float64)).all(), call
        except Exception as error:  # collected so that one failure reports them all
            failures.append(f"{call}: {type(error).__name__}: {error}")
    assert not failures, "\n".join(failures)
