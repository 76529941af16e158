"""AdaMax and Adadelta, MindSpore's ``nn.AdaMax`` and ``nn.Adadelta`` (the ApplyAdaMax/ApplyAdadelta rules).

AdaMax:   ``m = b1*m + (1-b1)*g``; ``v = max(b2*v, |g|)``; ``param -= lr / (1 - b1^t) * m / (v + eps)``,
          with ``b1^t`` kept as the ``beta1_power`` state (multiplied by ``b1`` before each update).
Adadelta: ``a = rho*a + (1-rho)*g^2``; ``u = sqrt(a_u + eps) / sqrt(a + eps) * g``;
          ``a_u = rho*a_u + (1-rho)*u^2``; ``param -= lr * u``.
Gradients are loss-scaled and weight-decayed first, as every built-in optimizer does.
"""
import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.optim.optimizer import Optimizer, documented
from sporax.ops.functional.update import adadelta_rule, adamax_rule
from sporax.state.assign import write


def _check_float(cell, name, value, low, high, low_open=False, high_open=True):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{cell}', the type of '{name}' must be float, but got {type(value).__name__}.")
    below = value <= low if low_open else value < low
    above = value >= high if high_open else value > high
    if below or above:
        raise ValueError(f"For '{cell}', '{name}' must be in {'(' if low_open else '['}{low}, {high}"
                         f"{')' if high_open else ']'}, but got {value}.")
    return float(value)


@documented
class AdaMax(Optimizer):
    """AdaMax (Adam with the infinity norm).

    Args:
        beta2 (float): decay rate of the infinity norm, in (0, 1).
    """

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1 = _check_float("AdaMax", "beta1", beta1, 0.0, 1.0, low_open=True)
        self.beta2 = _check_float("AdaMax", "beta2", beta2, 0.0, 1.0, low_open=True)
        self.eps = _check_float("AdaMax", "eps", eps, 0.0, float("inf"), low_open=True)
        self.beta1_power = Parameter(Tensor(np.ones(1, np.float32)), name="beta1_power")
        self.moment1 = self.parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self.parameters.clone(prefix="moment2", init="zeros")

    def construct(self, gradients):
        gradients, rates = self._advance(gradients)
        beta1_power = self.beta1_power._value * self.beta1
        write(self.beta1_power, beta1_power, "AdaMax")
        for parameter, m, v, gradient, rate in zip(self.parameters, self.moment1, self.moment2, gradients, rates):
            weight, new_m, new_v = adamax_rule(parameter._value, m._value, v._value, beta1_power[0], rate._value,
                                               self.beta1, self.beta2, self.eps, gradient._value)
            write(m, new_m, "AdaMax")
            write(v, new_v, "AdaMax")
            write(parameter, weight, "AdaMax")
        return True


@documented
class Adadelta(Optimizer):
    """Adadelta: steps scaled by the ratio of the running RMS of updates to that of gradients.

    Args:
        rho (float): decay rate of both running averages, in [0, 1].
        epsilon (float): added under the square roots, >= 0.
    """

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = _check_float("Adadelta", "rho", rho, 0.0, 1.0, high_open=False)
        self.epsilon = _check_float("Adadelta", "epsilon", epsilon, 0.0, float("inf"))
        self.accum = self.parameters.clone(prefix="accum", init="zeros")
        self.accum_update = self.parameters.clone(prefix="accum_update", init="zeros")

    def construct(self, grads):
        gradients, rates = self._advance(grads)
        for parameter, accum, accum_update, gradient, rate in zip(self.parameters, self.accum, self.accum_update,
                                                                 gradients, rates):
            weight, new_accum, new_update = adadelta_rule(parameter._value, accum._value, accum_update._value,
                                                          rate._value, self.rho, self.epsilon, gradient._value)
            write(accum, new_accum, "Adadelta")
            write(accum_update, new_update, "Adadelta")
            write(parameter, weight, "Adadelta")
        return True
