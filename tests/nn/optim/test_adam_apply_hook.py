"""nn.Adam's hooks for subclasses with their own ``construct`` (``_apply_adam``, ``use_offload``) and its keyword
options, against values and errors recorded from MindSpore 2.10 on CPU."""
import numpy as np
import pytest

import sporax
from sporax import Parameter, Tensor, nn, ops

GRADIENTS = ((([1.0, -2.0, 0.5], [1.0, -1.0])), (([-3.0, 0.1, 0.5], [-2.0, 0.5])))
# MindSpore 2.10: PreconditionedAdam([w, b], learning_rate=0.1) after both steps, in either mode
EXPECTED_W = [0.5006096959114075, -0.9818057417869568, 1.9936754703521729]
EXPECTED_B = [0.19733013212680817, -0.39235448837280273]
EXPECTED_MOMENT2_W = [0.5092491507530212, 0.5032562017440796, 0.499750018119812]


class PreconditionedAdam(nn.Adam):
    """Raises the second moment before the update, as curvature-aware Adam variants do, then runs Adam's own
    update through ``_apply_adam`` with the advanced bias-correction powers."""

    def construct(self, gradients):
        for moment in self.moment2:
            ops.assign(moment, moment + 0.25)
        gradients = self.decay_weight(gradients)
        if not self.use_offload:
            gradients = self.gradients_centralization(gradients)
        gradients = self.scale_grad(gradients)
        rate = self.get_lr()
        self.assignadd(self.global_step, self.global_step_increase_tensor)
        self.beta1_power *= self.beta1
        self.beta2_power *= self.beta2
        return self._apply_adam(self._parameters, self.beta1_power, self.beta2_power, self.moment1, self.moment2,
                                rate, gradients)


@pytest.mark.parametrize("mode", [sporax.PYNATIVE_MODE, sporax.GRAPH_MODE])
def test_subclass_update_through_apply_adam_matches_mindspore(mode):
    sporax.set_context(mode=mode)
    try:
        weight = Parameter(Tensor(np.array([0.5, -1.0, 2.0], np.float32)), name="w")
        bias = Parameter(Tensor(np.array([0.2, -0.4], np.float32)), name="b")
        optimizer = PreconditionedAdam([weight, bias], learning_rate=0.1, use_offload=mode == sporax.GRAPH_MODE)
        for gradient_w, gradient_b in GRADIENTS:
            optimizer((Tensor(np.array(gradient_w, np.float32)), Tensor(np.array(gradient_b, np.float32))))
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    np.testing.assert_allclose(weight.asnumpy(), EXPECTED_W, rtol=1e-6)
    np.testing.assert_allclose(bias.asnumpy(), EXPECTED_B, rtol=1e-6)
    np.testing.assert_allclose(optimizer.moment2[0].asnumpy(), EXPECTED_MOMENT2_W, rtol=1e-6)
    np.testing.assert_allclose(optimizer.beta1_power.asnumpy(), 0.81, rtol=1e-6)
    assert (optimizer.use_offload, optimizer.use_lazy) == (mode == sporax.GRAPH_MODE, False)


@pytest.mark.parametrize("options, error, message", [
    ({"use_lazy": True, "use_offload": True}, ValueError, "'use_lazy' and 'use_offload' can not both be True"),
    ({"use_fused": True}, KeyError, "supported keys are 'use_lazy' and 'use_offload'"),
    ({"use_lazy": 1}, TypeError, "the type of 'use_lazy' should be 'bool', but got type 'int'"),
    ({"use_offload": True, "use_amsgrad": True}, ValueError, "there is no parameter named 'use_amsgrad'"),
])
def test_keyword_options_are_refused_as_mindspore_refuses_them(options, error, message):
    with pytest.raises(error, match=message):
        nn.Adam([Parameter(Tensor(np.ones(2, np.float32)), name="p")], **options)
