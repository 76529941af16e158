"""ops.LSTM with stacked, bidirectional and projected layers: values against MindSpore 2.10 (its CPU weight
layout; tests/fixtures/ops/lstm_layers_mindspore.json), a NumPy reference, and gradients by finite differences."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "ops", "lstm_layers_mindspore.json")
CASES = {"bid1": (2, 2, 1, True, 0), "uni2": (2, 2, 2, False, 0), "proj": (3, 2, 1, False, 1),
         "projbid": (3, 3, 1, True, 2)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_mindspore(case):
    with open(FIXTURE) as handle:
        recorded = json.load(handle)
    weights = Tensor(np.array(recorded["w"], np.float32).reshape(-1, 1, 1))
    data = recorded[case]
    input_size, hidden, layers, bidirectional, proj = CASES[case]
    out = ops.LSTM(input_size, hidden, layers, True, bidirectional, 0.0, proj_size=proj)(
        Tensor(np.array(data["x"], np.float32)), Tensor(np.array(data["h"], np.float32)),
        Tensor(np.array(data["c"], np.float32)), weights)
    for got, expected in zip(out[:3], data["out"]):
        np.testing.assert_allclose(got.asnumpy(), expected, atol=1e-6)


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def _reference(x, h0, c0, blocks, layers, directions):
    layer_input, last_h = x, []
    for layer in range(layers):
        outputs = []
        for direction in range(directions):
            w_ih, w_hh, bias = (blocks[name, layer, direction] for name in ("ih", "hh", "b"))
            h, c = h0[layer * directions + direction], c0[layer * directions + direction]
            steps = range(len(layer_input)) if direction == 0 else reversed(range(len(layer_input)))
            out = np.zeros(layer_input.shape[:2] + (h.shape[-1],))
            for t in steps:
                i, f, g, o = np.split(layer_input[t] @ w_ih.T + h @ w_hh.T + bias, 4, -1)
                c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
                h = _sigmoid(o) * np.tanh(c)
                out[t] = h
            outputs.append(out)
            last_h.append(h)
        layer_input = np.concatenate(outputs, -1)
    return layer_input, np.stack(last_h)


def test_two_bidirectional_layers_match_numpy():
    rng = np.random.RandomState(3)
    input_size, hidden, layers, directions = 3, 2, 2, 2
    lstm = ops.LSTM(input_size, hidden, layers, True, True, 0.0)
    blocks, flat = {}, []
    for name, layer, direction, shape in lstm._layout():
        blocks[name, layer, direction] = rng.randn(*shape) * 0.5
        flat.append(blocks[name, layer, direction].ravel())
    x = rng.randn(4, 2, input_size)
    h0, c0 = rng.randn(4, 2, hidden) * 0.5, rng.randn(4, 2, hidden) * 0.5
    out, h_n, _, _, _ = lstm(*(Tensor(v.astype(np.float32)) for v in (x, h0, c0)),
                             Tensor(np.concatenate(flat).astype(np.float32).reshape(-1, 1, 1)))
    expected_out, expected_h = _reference(x, h0, c0, blocks, layers, directions)
    assert out.shape == (4, 2, 4) and h_n.shape == (4, 2, 2)
    np.testing.assert_allclose(out.asnumpy(), expected_out, atol=1e-5)
    np.testing.assert_allclose(h_n.asnumpy(), expected_h, atol=1e-5)


def test_gradient_matches_finite_differences():
    rng = np.random.RandomState(4)
    lstm = ops.LSTM(2, 2, 2, True, True, 0.0, proj_size=1)
    size = sum(int(np.prod(shape)) for *_, shape in lstm._layout())
    w = rng.randn(size, 1, 1) * 0.5
    x, h0, c0 = rng.randn(3, 1, 2), rng.randn(4, 1, 1) * 0.5, rng.randn(4, 1, 2) * 0.5

    def loss(weights):
        out, h_n, c_n, _, _ = lstm(Tensor(x), Tensor(h0), Tensor(c0), weights)
        return (out * out).sum() + h_n.sum() + c_n.sum()

    grad = ms.grad(loss)(Tensor(w)).asnumpy().ravel()
    direction = rng.randn(*w.shape)
    eps = 1e-5
    numeric = (float(loss(Tensor(w + eps * direction)).asnumpy()) -
               float(loss(Tensor(w - eps * direction)).asnumpy())) / (2 * eps)
    np.testing.assert_allclose(np.dot(grad, direction.ravel()), numeric, rtol=1e-5)


def test_shape_errors_name_the_expected_shapes():
    with pytest.raises(ValueError, match="proj_size"):
        ops.LSTM(3, 2, 1, True, False, 0.0, proj_size=2)
    with pytest.raises(ValueError, match=r"'h' \(4, batch, 2\)"):
        ops.LSTM(3, 2, 2, True, True, 0.0)(Tensor(np.zeros((2, 1, 3), np.float32)),
                                          Tensor(np.zeros((1, 1, 2), np.float32)),
                                          Tensor(np.zeros((1, 1, 2), np.float32)),
                                          Tensor(np.zeros((500, 1, 1), np.float32)))
