"""Per-coordinate adaptive optimizers: ``Adadelta``, ``Adagrad``, ``ASGD``, ``RMSprop``, ``Rprop``."""
import jax.numpy as jnp

from sporax.mint.optim.optimizer import Optimizer, check_range, documented
from sporax.ops.functional.update import adadelta_rule


@documented
class Adadelta(Optimizer):
    """Adadelta: steps scaled by running averages of squared gradients and squared updates.

    Args:
        rho (float): decay rate of both running averages, in [0, 1].
    """

    _state_names = ("square_avg", "acc_delta")

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *, maximize=False):
        check_range("Adadelta", lr=lr, eps=eps, weight_decay=weight_decay)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"For 'Adadelta', invalid rho value: {rho}; it must be in [0, 1].")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize))

    def _update(self, group, lr, index, value, gradient, step):
        value, square_avg, acc_delta = adadelta_rule(value, self._state("square_avg", index),
                                                     self._state("acc_delta", index), lr, group["rho"],
                                                     group["eps"], gradient)
        self._store("square_avg", index, square_avg)
        self._store("acc_delta", index, acc_delta)
        return value


@documented
class Adagrad(Optimizer):
    """Adagrad: steps scaled by the root of the accumulated squared gradients.

    Args:
        lr_decay (float): the step's rate is ``lr / (1 + (step - 1) * lr_decay)``.
        initial_accumulator_value (float): the starting value of the sum of squared gradients.
    """

    _state_names = ("state_sum",)

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10, *,
                 maximize=False):
        check_range("Adagrad", lr=lr, lr_decay=lr_decay, weight_decay=weight_decay, eps=eps,
                    initial_accumulator_value=initial_accumulator_value)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay, eps=eps,
                                      initial_accumulator_value=initial_accumulator_value, maximize=maximize))

    def _update(self, group, lr, index, value, gradient, step):
        # The initial accumulator is added here so that groups may differ in it.
        state_sum = self._state("state_sum", index) + gradient * gradient
        self._store("state_sum", index, state_sum)
        rate = lr / (1 + (step - 1) * group["lr_decay"])
        return value - rate * gradient / (jnp.sqrt(state_sum + group["initial_accumulator_value"]) + group["eps"])


@documented
class ASGD(Optimizer):
    """Averaged SGD; the step size ``eta`` and averaging weight ``mu`` follow the step count.

    Args:
        lambd (float): decay term.
        alpha (float): power of the eta update.
        t0 (float): the step at which averaging starts.
    """

    _state_names = ("ax",)

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0, maximize=False):
        check_range("ASGD", lr=lr, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                                      maximize=maximize))

    def _update(self, group, lr, index, value, gradient, step):
        lambd = group["lambd"]
        eta = lr / (1 + lambd * lr * (step - 1)) ** group["alpha"]
        mu = 1 / jnp.maximum(1.0, step - 1 - group["t0"])
        value = value * (1 - lambd * eta) - eta * gradient
        ax = self._state("ax", index)
        self._store("ax", index, jnp.where(mu != 1, ax + (value - ax) * mu, value))
        return value


@documented
class RMSprop(Optimizer):
    """RMSprop: steps scaled by a running root-mean-square of the gradients.

    Args:
        alpha (float): smoothing constant.
        momentum (float): momentum of the scaled step (0 disables it).
        centered (bool): normalise by the estimated variance.
    """

    _state_names = ("square_avg", "grad_avg", "momentum_buffer")

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False,
                 maximize=False):
        check_range("RMSprop", lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum)
        super().__init__(params, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum,
                                      centered=centered, maximize=maximize))

    def _update(self, group, lr, index, value, gradient, step):
        alpha = group["alpha"]
        square_avg = alpha * self._state("square_avg", index) + (1 - alpha) * gradient * gradient
        self._store("square_avg", index, square_avg)
        if group["centered"]:
            grad_avg = alpha * self._state("grad_avg", index) + (1 - alpha) * gradient
            self._store("grad_avg", index, grad_avg)
            average = jnp.sqrt(square_avg - grad_avg * grad_avg) + group["eps"]
        else:
            average = jnp.sqrt(square_avg) + group["eps"]
        if group["momentum"] > 0:
            buffer = group["momentum"] * self._state("momentum_buffer", index) + gradient / average
            self._store("momentum_buffer", index, buffer)
            return value - lr * buffer
        return value - lr * gradient / average


@documented
class Rprop(Optimizer):
    """Rprop: per-coordinate step sizes grown or shrunk by the sign agreement of successive gradients.

    Args:
        lr (float): the initial step size.
        etas (tuple[float, float]): (decrease, increase) factors of the step size.
        step_sizes (tuple[float, float]): (minimum, maximum) step sizes.
    """

    _state_names = ("prev", "step_size")

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, maximize=False):
        check_range("Rprop", lr=lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"For 'Rprop', invalid eta values: {tuple(etas)}; need 0 < etaminus < 1 < etaplus.")
        super().__init__(params, dict(lr=lr, etas=tuple(etas), step_sizes=tuple(step_sizes), maximize=maximize))

    def _update(self, group, lr, index, value, gradient, step):
        eta_minus, eta_plus = group["etas"]
        smallest, largest = group["step_sizes"]
        agreement = jnp.sign(gradient * self._state("prev", index))
        factor = jnp.where(agreement > 0, eta_plus, jnp.where(agreement < 0, eta_minus, 1.0))
        previous_size = jnp.where(step == 1, lr, self._state("step_size", index))
        step_size = jnp.clip(previous_size * factor, smallest, largest)
        gradient = jnp.where(agreement < 0, 0.0, gradient)
        self._store("step_size", index, step_size)
        self._store("prev", index, gradient)
        return value - jnp.sign(gradient) * step_size
