"""``mindspore.nn`` optimizers with per-element proximal, sign-driven or averaged steps: ``ProximalAdagrad``,
``Rprop``, ``ASGD``.

ProximalAdagrad: ``accum += g^2``; ``a = lr / sqrt(accum)``; ``v = w - a * g``;
          ``w = sign(v) * max(|v| - a * l1, 0) / (1 + a * l2)``.
Rprop:    per element, the step grows by ``etas[1]`` while the gradient keeps its sign, shrinks by
          ``etas[0]`` when it flips (and that gradient is then ignored), clipped to ``step_sizes``;
          ``w -= step * sign(g)``; the step starts at the learning rate.
ASGD:     ``w = w * (1 - lambd * eta) - eta * g``; the average ``ax`` follows ``w`` with weight ``mu``;
          then ``eta = lr / (1 + lambd * lr * t) ** alpha`` and ``mu = 1 / max(1, t - t0)``.
Gradients are loss-scaled and weight-decayed first, as in every built-in optimizer.
"""
import jax.numpy as jnp
import numpy as np

from sporax.core.parameter import Parameter, ParameterTuple
from sporax.core.tensor import Tensor
from sporax.nn.optim.optimizer import Optimizer, documented
from sporax.ops.functional.update import proximal_adagrad_rule
from sporax.state.assign import write


def _number(cell, name, value, low=0.0):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
        raise ValueError(f"For '{cell}', the '{name}' must be a number >= {low}, but got {value!r}.")
    return float(value)


def _filled(parameters, prefix, value):
    return ParameterTuple(Parameter(Tensor(np.full(p.shape, value, p.asnumpy().dtype)), name=f"{prefix}.{p.name}",
                                    requires_grad=False) for p in parameters)


@documented
class ProximalAdagrad(Optimizer):
    """Adagrad with an L1/L2 proximal step (see the module description).

    Args:
        accum (float): the accumulators' initial value, >= 0.
        l1 (float): L1 regularization strength, >= 0.
        l2 (float): L2 regularization strength, >= 0.
    """

    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.l1 = _number("ProximalAdagrad", "l1", l1)
        self.l2 = _number("ProximalAdagrad", "l2", l2)
        self.accum = _filled(self.parameters, "accum", _number("ProximalAdagrad", "accum", accum))

    def construct(self, grads):
        gradients, rates = self._advance(grads)
        for parameter, accum, gradient, rate in zip(self.parameters, self.accum, gradients, rates):
            weight = parameter._value
            new_weight, new_accum = proximal_adagrad_rule(weight, accum._value, rate._value, self.l1, self.l2,
                                                          gradient._value)
            write(accum, new_accum, "ProximalAdagrad")
            write(parameter, new_weight.astype(weight.dtype), "ProximalAdagrad")
        return True


@documented
class Rprop(Optimizer):
    """Resilient backpropagation (see the module description).

    Args:
        learning_rate (Union[float, Tensor, Iterable, LearningRateSchedule]): the initial step size.
        etas (tuple[float]): (shrink, grow) factors, 0 < shrink < 1 < grow.
        step_sizes (tuple[float]): (min, max) step sizes.
    """

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0), weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        if not isinstance(etas, tuple) or len(etas) != 2 or not 0 < etas[0] < 1 < etas[1]:
            raise ValueError(f"For 'Rprop', the 'etas' must be a tuple (etaminus, etaplus) with 0 < etaminus < 1 < "
                             f"etaplus, but got {etas!r}.")
        if not isinstance(step_sizes, tuple) or len(step_sizes) != 2 or not 0 <= step_sizes[0] <= step_sizes[1]:
            raise ValueError(f"For 'Rprop', the 'step_sizes' must be a tuple (min, max) with 0 <= min <= max, but got "
                             f"{step_sizes!r}.")
        self.etaminus, self.etaplus = float(etas[0]), float(etas[1])
        self.step_size_min, self.step_size_max = float(step_sizes[0]), float(step_sizes[1])
        self.prev = self.parameters.clone(prefix="prev", init="zeros")
        self.step_size = self.parameters.clone(prefix="step_size", init="zeros")

    def construct(self, gradients):
        gradients, rates = self._advance(gradients)
        first = self.global_step._value.reshape(()) == 1
        for parameter, prev, step_size, gradient, rate in zip(self.parameters, self.prev, self.step_size, gradients,
                                                              rates):
            gradient, weight = gradient._value.astype(jnp.float32), parameter._value
            step = jnp.where(first, jnp.ones_like(step_size._value) * rate._value, step_size._value)
            product = jnp.sign(gradient * prev._value)
            factor = jnp.where(product > 0, self.etaplus, jnp.where(product < 0, self.etaminus, 1.0))
            step = jnp.clip(step * factor, self.step_size_min, self.step_size_max)
            gradient = jnp.where(factor == self.etaminus, 0.0, gradient)
            write(parameter, (weight - jnp.sign(gradient) * step).astype(weight.dtype), "Rprop")
            write(prev, gradient.astype(prev._value.dtype), "Rprop")
            write(step_size, step.astype(step_size._value.dtype), "Rprop")
        return True


@documented
class ASGD(Optimizer):
    """Averaged stochastic gradient descent (see the module description); ``ax`` holds the averages.

    Args:
        lambd (float): the decay term.
        alpha (float): the power of the ``eta`` update.
        t0 (float): the step averaging starts at.
    """

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        for name, value in (("lambd", lambd), ("alpha", alpha), ("t0", t0)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"For 'ASGD', the '{name}' must be a float, but got {type(value).__name__}.")
        self.lambd, self.alpha, self.t0 = float(lambd), float(alpha), float(t0)
        scalars = [Parameter(Tensor(np.float32(value)), name=f"{prefix}_{index}", requires_grad=False)
                   for index in range(len(self.parameters)) for prefix, value in (("eta", 0.0), ("mu", 1.0))]
        self.eta = ParameterTuple(scalars[0::2])
        self.mu = ParameterTuple(scalars[1::2])
        self.ax = self.parameters.clone(prefix="ax", init="zeros")

    def construct(self, gradients):
        gradients, rates = self._advance(gradients)
        step = self.global_step._value.reshape(()).astype(jnp.float32)
        for parameter, gradient, rate, eta, mu, ax in zip(self.parameters, gradients, rates, self.eta, self.mu,
                                                          self.ax):
            rate = rate._value.reshape(())
            eta_value = jnp.where(step == 1, rate, eta._value)
            weight = parameter._value.astype(jnp.float32)
            weight = weight * (1.0 - self.lambd * eta_value) - eta_value * gradient._value.astype(jnp.float32)
            write(parameter, weight.astype(parameter._value.dtype), "ASGD")
            average = ax._value.astype(jnp.float32)
            average = jnp.where(mu._value != 1, average + (weight - average) * mu._value, weight)
            write(ax, average.astype(ax._value.dtype), "ASGD")
            write(eta, (rate / (1.0 + self.lambd * rate * step) ** self.alpha).astype(jnp.float32), "ASGD")
            write(mu, (1.0 / jnp.maximum(1.0, step - self.t0)).astype(jnp.float32), "ASGD")
        return True
