"""ops.DynamicRNN against a NumPy LSTM with MindSpore's (i, j, f, o) gate layout; gradient by
finite differences. (MindSpore 2.10 runs DynamicRNN on Ascend only.)"""
import numpy as np
import pytest

import sporax as ms
from sporax import ops


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _reference(x, w, b, h, c, forget_bias, cell_clip):
    hidden = h.shape[-1]
    outputs = []
    for x_t in x:
        gates = np.concatenate([x_t, h], axis=-1) @ w + b
        i, j, f, o = (gates[:, k * hidden:(k + 1) * hidden] for k in range(4))
        i, j, f, o = _sigmoid(i), np.tanh(j), _sigmoid(f + forget_bias), _sigmoid(o)
        c = f * c + i * j
        if cell_clip > 0:
            c = np.clip(c, -cell_clip, cell_clip)
        h = o * np.tanh(c)
        outputs.append((h, h, c, i, j, f, o, np.tanh(c)))
    return [np.stack(column) for column in zip(*outputs)]


@pytest.mark.parametrize("forget_bias,cell_clip", [(0.0, -1.0), (1.0, 0.3)])
def test_matches_numpy_lstm(forget_bias, cell_clip):
    rng = np.random.default_rng(0)
    steps, batch, features, hidden = 4, 2, 3, 5
    x = rng.standard_normal((steps, batch, features)).astype(np.float32)
    w = (rng.standard_normal((features + hidden, 4 * hidden)) * 0.5).astype(np.float32)
    b = rng.standard_normal(4 * hidden).astype(np.float32)
    h0 = rng.standard_normal((1, batch, hidden)).astype(np.float32)
    c0 = rng.standard_normal((1, batch, hidden)).astype(np.float32)
    rnn = ops.DynamicRNN(forget_bias=forget_bias, cell_clip=cell_clip)
    got = rnn(*(ms.Tensor(v) for v in (x, w, b)), None, ms.Tensor(h0), ms.Tensor(c0))
    assert len(got) == 8
    for output, want in zip(got, _reference(x, w, b, h0[0], c0[0], forget_bias, cell_clip)):
        np.testing.assert_allclose(output.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_gradient_of_last_hidden_state():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 1, 2))
    w = rng.standard_normal((4, 8)) * 0.5
    b, h0, c0 = rng.standard_normal(8), np.zeros((1, 1, 2)), np.zeros((1, 1, 2))
    rnn = ops.DynamicRNN()

    def loss(weight):
        return rnn(ms.Tensor(x), weight, ms.Tensor(b), None, ms.Tensor(h0), ms.Tensor(c0))[0].sum()

    grad = ms.grad(loss)(ms.Tensor(w)).asnumpy()
    for direction in rng.standard_normal((2,) + w.shape):
        numeric = (float(loss(ms.Tensor(w + 1e-6 * direction)).asnumpy()) -
                   float(loss(ms.Tensor(w - 1e-6 * direction)).asnumpy())) / 2e-6
        np.testing.assert_allclose(np.sum(grad * direction), numeric, rtol=1e-4, atol=1e-6)


def test_unsupported_arguments():
    with pytest.raises(ValueError, match="cell_type"):
        ops.DynamicRNN(cell_type="GRU")
    with pytest.raises(ValueError, match="time_major"):
        ops.DynamicRNN(time_major=False)
    with pytest.raises(ValueError, match="shape"):
        ops.DynamicRNN()(ms.Tensor(np.ones((2, 1, 3), np.float32)), ms.Tensor(np.ones((4, 8), np.float32)),
                         ms.Tensor(np.ones(8, np.float32)), None, ms.Tensor(np.ones((1, 1, 2), np.float32)),
                         ms.Tensor(np.ones((1, 1, 2), np.float32)))
