"""Gradients through point-to-point messages on 2 processes (tests/parallel/jobs/p2p_gradients.py): as MindSpore's,
the gradient of a sent tensor is the receiver's gradient of what it received, sent back; values against NumPy."""
import numpy as np
import pytest

from tests.parallel.helpers import run_job


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return run_job("p2p_gradients.py", tmp_path_factory.mktemp("p2p_gradients"), timeout=200)


def _expected(results):
    x, t = (np.asarray(results[rank]["input"], np.float32) for rank in (0, 1))
    # loss1 = sum(tanh(x) * 3 * t) + sum(t^2): rank 1's gradient is tanh(x) * 3 + 2t, and the received tensor's
    # gradient t goes back to rank 0, through tanh(x) * 3; the second message is unused (a zero gradient).
    return {0: 2 * x + t * 3 * (1 - np.tanh(x) ** 2), 1: np.tanh(x) * 3 + 2 * t}, (x, t)


@pytest.mark.slow
@pytest.mark.parametrize("key", ["grad", "jit_grad", "graph_grad"])
def test_isend_irecv_gradients_cross_to_the_sender(results, key):
    expected, _ = _expected(results)
    for rank in (0, 1):
        np.testing.assert_allclose(results[rank][key], expected[rank], rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_value_and_grad_through_isend_irecv(results):
    expected, (x, t) = _expected(results)
    losses = {0: (x ** 2).sum(), 1: (np.tanh(x) * 3 * t).sum() + (t ** 2).sum()}
    for rank in (0, 1):
        loss, gradient = results[rank]["value_and_grad"]
        np.testing.assert_allclose(loss, losses[rank], rtol=1e-5)
        np.testing.assert_allclose(gradient, expected[rank], rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_send_whose_output_the_loss_does_not_use_still_gets_the_receivers_gradient(results):
    expected, _ = _expected(results)
    for rank in (0, 1):
        np.testing.assert_allclose(results[rank]["send_depend_grad"], expected[rank], rtol=1e-5, atol=1e-6)


@pytest.mark.slow
def test_batch_isend_irecv_gradients_cross_both_ways(results):
    # loss_r = sum(received * x_r), received = x_o * (o + 1): d/dx_r = x_o * (o + 1) from the received tensor
    # plus x_o * (r + 1), the other rank's gradient of what it received from r, sent back: 3 x_o for 2 ranks.
    for rank in (0, 1):
        other = np.asarray(results[1 - rank]["input"], np.float32)
        np.testing.assert_allclose(results[rank]["batch_grad"], 3 * other, rtol=1e-5, atol=1e-6)
