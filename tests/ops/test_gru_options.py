"""ops.DynamicGRUV2 with time_major=False and reset_after=False, against a NumPy loop."""
import numpy as np
import pytest

from sporax import Tensor, ops


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


@pytest.mark.parametrize("reset_after", [True, False])
@pytest.mark.parametrize("time_major", [True, False])
def test_gru_layouts_and_reset_placement(time_major, reset_after):
    rng = np.random.RandomState(0)
    steps, batch, size, hidden = 3, 2, 4, 5
    x = rng.rand(steps, batch, size).astype(np.float32)
    w_in, w_hid = rng.rand(size, 3 * hidden).astype(np.float32) - 0.5, rng.rand(hidden, 3 * hidden).astype(np.float32) - 0.5
    b_in, b_hid = rng.rand(3 * hidden).astype(np.float32), rng.rand(3 * hidden).astype(np.float32)
    h = rng.rand(batch, hidden).astype(np.float32)
    feed = x if time_major else x.transpose(1, 0, 2)
    out = ops.DynamicGRUV2(time_major=time_major, reset_after=reset_after)(
        Tensor(feed), Tensor(w_in), Tensor(w_hid), Tensor(b_in), Tensor(b_hid), None, Tensor(h[None]))
    ys = out[0].asnumpy() if time_major else out[0].asnumpy().transpose(1, 0, 2)
    for t in range(steps):
        r_x, z_x, n_x = np.split(x[t] @ w_in + b_in, 3, -1)
        r_h, z_h, n_h = np.split(h @ w_hid + b_hid, 3, -1)
        r, z = _sigmoid(r_x + r_h), _sigmoid(z_x + z_h)
        if reset_after:
            n = np.tanh(n_x + r * n_h)
        else:
            n = np.tanh(n_x + np.split((r * h) @ w_hid + b_hid, 3, -1)[2])
        h = (1 - z) * n + z * h
        np.testing.assert_allclose(ys[t], h, rtol=1e-5, atol=1e-6)
    assert out[0].shape == feed.shape[:2] + (hidden,)


def test_options_without_documented_meaning_still_refuse():
    with pytest.raises(NotImplementedError, match="num_proj"):
        ops.DynamicGRUV2(num_proj=2)
