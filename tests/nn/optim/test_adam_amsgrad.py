"""nn.Adam(use_amsgrad=True) against values recorded from MindSpore 2.10 on CPU (nn.Adam with the same inputs)."""
import numpy as np

from sporax import Parameter, Tensor, nn

GRADIENTS_W = [[[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]], [[-3.0, 0.1, 0.5], [2.0, -0.5, 1.0]],
               [[0.2, 0.2, -4.0], [1.0, 1.0, 1.0]]]
GRADIENTS_B = [[1.0, -1.0], [-2.0, 0.5], [0.1, 3.0]]
# MindSpore 2.10: nn.Adam([w, b], learning_rate=0.1, use_amsgrad=True), after steps 1, 2, 3.
EXPECTED_W = [[[0.40000004, -0.90000004, 1.9000001], [0.1, 0.20000002, -0.6]],
              [[0.44941884, -0.836796, 1.8000004], [0.02558658, 0.14614645, -0.6052632]],
              [[0.483509, -0.7945365, 1.8494611], [-0.054437, 0.0866334, -0.64548427]]]
EXPECTED_B = [[0.10000004, -0.30000004], [0.13661025, -0.27336645], [0.16202597, -0.32604828]]
EXPECTED_VHAT_W = [0.01002887, 0.00404194, 0.01649904, 0.00499594, 0.01023163, 0.00299696]


def _parameters():
    weight = Parameter(Tensor(np.array([[0.5, -1.0, 2.0], [0.1, 0.3, -0.7]], np.float32)), name="w")
    bias = Parameter(Tensor(np.array([0.2, -0.4], np.float32)), name="b")
    return weight, bias


def test_amsgrad_steps_match_mindspore():
    weight, bias = _parameters()
    optimizer = nn.Adam([weight, bias], learning_rate=0.1, use_amsgrad=True)
    for step in range(3):
        optimizer((Tensor(np.array(GRADIENTS_W[step], np.float32)), Tensor(np.array(GRADIENTS_B[step], np.float32))))
        np.testing.assert_allclose(weight.asnumpy(), EXPECTED_W[step], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(bias.asnumpy(), EXPECTED_B[step], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(optimizer.vhat[0].asnumpy().ravel(), EXPECTED_VHAT_W, rtol=5e-5)


def test_amsgrad_state_names_match_mindspore_checkpoints():
    weight, bias = _parameters()
    optimizer = nn.Adam([weight, bias], use_amsgrad=True)
    assert [name for name, _ in optimizer.parameters_and_names()] == [
        "global_step", "learning_rate", "w", "b", "beta1_power", "beta2_power", "moment1.w", "moment1.b",
        "moment2.w", "moment2.b", "vhat.w", "vhat.b"]


def test_amsgrad_ignores_nesterov_and_applies_weight_decay_as_mindspore():
    weight = Parameter(Tensor(np.array([0.5, -1.0, 2.0], np.float32)), name="w")
    optimizer = nn.Adam([weight], learning_rate=0.1, use_amsgrad=True, use_nesterov=True, weight_decay=0.1)
    for gradient in ([1.0, -2.0, 0.5], [-3.0, 0.1, 0.5]):
        optimizer((Tensor(np.array(gradient, np.float32)),))
    np.testing.assert_allclose(weight.asnumpy(), [0.44774437, -0.83338225, 1.8000406], rtol=1e-5)
