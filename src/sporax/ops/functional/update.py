"""Ops that update Parameters in place: assign, and the optimizer update rules.

Each rule is written once here on plain arrays (``*_rule``), so the Primitive classes
(``ApplyMomentum``, ``Adam`` ...) and the ``nn`` optimizers share it; the stores go through
``sporax.state.assign.write``.
"""
import jax.numpy as jnp

from sporax.core.tensor import unwrap
from sporax.state.assign import assign as assign_state
from sporax.state.assign import write


def assign(variable, value):
    """Store ``value`` into Parameter ``variable``; returns the variable.

    Example:
        >>> import sporax as ms
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> ms.ops.assign(w, ms.Tensor([3.0, 4.0]))
        Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)
    """
    return assign_state(variable, value, "assign")


def assign_add(variable, value):
    """``variable += value`` for a Parameter; returns the variable."""
    return write(variable, variable._value + unwrap(value), "assign_add")


def assign_sub(variable, value):
    """``variable -= value`` for a Parameter; returns the variable."""
    return write(variable, variable._value - unwrap(value), "assign_sub")


def momentum_rule(weight, moment, learning_rate, gradient, momentum, use_nesterov=False):
    """MindSpore's ApplyMomentum: ``moment = moment * momentum + gradient``, then the step."""
    moment = moment * momentum + gradient
    if use_nesterov:
        return weight - (gradient + moment * momentum) * learning_rate, moment
    return weight - learning_rate * moment, moment


def adam_rule(weight, m, v, beta1_power, beta2_power, learning_rate, beta1, beta2, epsilon,
              gradient, use_nesterov=False):
    """MindSpore's Adam update with bias correction through ``beta1_power``/``beta2_power``."""
    m = m + (gradient - m) * (1 - beta1)
    v = v + (gradient * gradient - v) * (1 - beta2)
    step = learning_rate * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
    if use_nesterov:
        update = (m * beta1 + (1 - beta1) * gradient) / (jnp.sqrt(v) + epsilon)
    else:
        update = m / (jnp.sqrt(v) + epsilon)
    return weight - step * update, m, v


def apply_momentum(variable, accumulation, learning_rate, gradient, momentum, use_nesterov=False):
    """Update ``variable`` and ``accumulation`` by the momentum rule; returns the variable."""
    weight, moment = momentum_rule(variable._value, accumulation._value, unwrap(learning_rate),
                                   unwrap(gradient), unwrap(momentum), use_nesterov)
    write(accumulation, moment, "ApplyMomentum")
    return write(variable, weight, "ApplyMomentum")


def apply_gradient_descent(variable, alpha, delta):
    """``variable -= alpha * delta``; returns the variable."""
    return write(variable, variable._value - unwrap(alpha) * unwrap(delta), "ApplyGradientDescent")


def apply_adam(variable, m, v, beta1_power, beta2_power, learning_rate, beta1, beta2, epsilon, gradient,
               use_nesterov=False):
    """Update ``variable``, ``m`` and ``v`` by Adam; returns ``(variable, m, v)``."""
    weight, new_m, new_v = adam_rule(variable._value, m._value, v._value, unwrap(beta1_power),
                                     unwrap(beta2_power), unwrap(learning_rate), unwrap(beta1),
                                     unwrap(beta2), unwrap(epsilon), unwrap(gradient), use_nesterov)
    write(m, new_m, "Adam")
    write(v, new_v, "Adam")
    return write(variable, weight, "Adam"), m, v



def adadelta_rule(weight, accum, accum_update, learning_rate, rho, epsilon, gradient):
    """MindSpore's ApplyAdadelta: running averages of squared gradients and of squared updates."""
    accum = rho * accum + (1 - rho) * gradient * gradient
    step = jnp.sqrt(accum_update + epsilon) / jnp.sqrt(accum + epsilon) * gradient
    accum_update = rho * accum_update + (1 - rho) * step * step
    return weight - learning_rate * step, accum, accum_update


def apply_adadelta(variable, accum, accum_update, learning_rate, rho, epsilon, gradient):
    """Update ``variable``, ``accum`` and ``accum_update`` by Adadelta; returns the three."""
    weight, new_accum, new_update = adadelta_rule(
        variable._value, accum._value, accum_update._value, unwrap(learning_rate), unwrap(rho),
        unwrap(epsilon), unwrap(gradient))
    write(accum, new_accum, "ApplyAdadelta")
    write(accum_update, new_update, "ApplyAdadelta")
    return write(variable, weight, "ApplyAdadelta"), accum, accum_update
