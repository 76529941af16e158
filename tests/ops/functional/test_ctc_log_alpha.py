"""ops.ctc_loss's log_alpha: no probability past a sample's target states or its input length."""
import numpy as np

from sporax import Tensor, int32, ops

INF = -np.inf


def test_docstring_example_pads_the_states_past_the_target():
    # MindSpore 2.10's ops.ctc_loss docstring example, values recorded on MindSpore 2.10 (CPU).
    log_probs = Tensor(np.array([[[0.3, 0.6, 0.6]], [[0.9, 0.4, 0.2]]], np.float32))
    loss, log_alpha = ops.ctc_loss(log_probs, Tensor(np.array([[0, 1]]), int32), Tensor(np.array([2]), int32),
                                   Tensor(np.array([1]), int32), 0, "mean", True)
    np.testing.assert_allclose(loss.asnumpy(), -2.2986124, rtol=1e-5)
    np.testing.assert_allclose(log_alpha.asnumpy(), [[[0.3, 0.3, INF, INF, INF], [1.2, 1.8931472, 1.2, INF, INF]]],
                               rtol=1e-5)


def test_short_inputs_and_targets_in_a_batch():
    # Values recorded on MindSpore 2.10 (CPU) for these inputs: sample 0 has one label, sample 1 three steps.
    log_probs = np.log(np.random.RandomState(0).dirichlet(np.ones(3), size=(4, 2))).astype(np.float32)
    loss, log_alpha = ops.ctc_loss(Tensor(log_probs), Tensor(np.array([[1, 2], [2, 1]]), int32),
                                   Tensor([4, 3], int32), Tensor([1, 2], int32), 0, "none", False)
    np.testing.assert_allclose(loss.asnumpy(), [2.173356, 4.05225], rtol=1e-5)
    np.testing.assert_allclose(log_alpha.asnumpy(), [
        [[-1.318567, -0.862377, INF, INF, INF], [-3.681624, -1.383014, -3.225433, INF, INF],
         [-5.112659, -1.588509, -2.666981, INF, INF], [-6.703652, -2.846661, -2.886746, INF, INF]],
        [[-1.104862, -0.828141, INF, INF, INF], [-2.86282, -1.579401, -2.586099, -1.409234, INF],
         [-5.899314, -1.395374, -4.30443, -5.175278, -4.445728], [INF, INF, INF, INF, INF]]], rtol=1e-5)
