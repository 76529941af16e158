"""Ops that update Parameters in place: assign, and the optimizer update rules.

Each rule is written once here on plain arrays (``*_rule``), so the Primitive classes
(``ApplyMomentum``, ``Adam`` ...) and the ``nn`` optimizers share it; the stores go through
``sporax.state.assign.write``.
"""
import math

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.context import get_context
from sporax.core.tensor import unwrap
from sporax.ops.lowering import adam_cpu, momentum_cpu, sgd_cpu
from sporax.ops.op_table import ANY, op
from sporax.ops.samples import operands
from sporax.state.assign import assign as assign_state
from sporax.state.assign import write
from sporax.state.conditional import update_if


def _numpy_assign(variable, value):
    return np.broadcast_to(value, np.shape(variable)).astype(np.asarray(variable).dtype)


# The value of a Parameter update: broadcast against the variable, or a Python number. Inline: an optimizer's
# step counter update in a compiled train step stays a plain add (its program does not change).
_UPDATES = operands((((3, 4), (3, 4)), {}), (((3, 4), (4,)), {}))


@op(inputs=("variable", "value"), scalars="value", writes="variable", snapshot=True, writer=assign_state, dtypes=ANY,
    inline=True, grad_check=False, samples=_UPDATES, reference=_numpy_assign)
def assign(variable, value):
    """Store ``value`` into Parameter ``variable`` (broadcast, in its dtype); returns a new Tensor of the stored
    value, as MindSpore 2.10 does (not the Parameter: a later write into it leaves that Tensor as it is). Later
    reads of the variable differentiate with respect to the Parameter, as MindSpore's Assign.

    Example:
        >>> import sporax as ms
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> ms.ops.assign(w, ms.Tensor([3.0, 4.0])).asnumpy().tolist(), w.asnumpy().tolist()
        ([3.0, 4.0], [3.0, 4.0])
    """
    value = jnp.asarray(value).astype(variable.dtype)
    if value.shape != variable.shape and value.size == variable.size and value.ndim > variable.ndim:
        return value.reshape(variable.shape)  # (1,) into (): MindSpore's Assign stores equal sizes
    try:
        return jnp.broadcast_to(value, variable.shape)
    except ValueError:
        def text(shape):
            return "(" + ", ".join(map(str, shape)) + ")"
        first = (f"For 'Assign','value' must have the same rank as 'variable'. But got 'value' rank: {value.ndim}, "
                 f"'variable' rank: {variable.ndim}." if value.ndim != variable.ndim else
                 f"For 'Assign','value' must have the same shape as 'variable'. But got 'value' shape: "
                 f"{text(value.shape)}, 'variable' shape: {text(variable.shape)}.")
        raise ValueError(f"{first}\nFor 'assign', a value "
                         f"of shape {value.shape} cannot be stored into a Parameter of shape {variable.shape} "
                         "(it must broadcast to it).") from None


@op(inputs=("variable", "value"), scalars="value", writes="variable", snapshot=True, dtypes=ANY, inline=True,
    grad_check=False, samples=_UPDATES,
    reference=lambda variable, value: np.asarray(variable + value, np.asarray(variable).dtype))
def assign_add(variable, value):
    """``variable += value`` for a Parameter (the sum in the variable's dtype); returns a new Tensor of that sum.

    Example:
        >>> import sporax as ms
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> ms.ops.assign_add(w, ms.Tensor([3.0, 4.0])).asnumpy().tolist()
        [4.0, 6.0]
    """
    return (variable + value).astype(variable.dtype)


@op(inputs=("variable", "value"), scalars="value", writes="variable", snapshot=True, dtypes=ANY, inline=True,
    grad_check=False, samples=_UPDATES,
    reference=lambda variable, value: np.asarray(variable - value, np.asarray(variable).dtype))
def assign_sub(variable, value):
    """``variable -= value`` for a Parameter (the difference in the variable's dtype); returns a new Tensor of it.

    Example:
        >>> import sporax as ms
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> ms.ops.assign_sub(w, 1.0).asnumpy().tolist()
        [0.0, 1.0]
    """
    return (variable - value).astype(variable.dtype)


def momentum_rule(weight, moment, learning_rate, gradient, momentum, use_nesterov=False):
    """MindSpore's ApplyMomentum: ``moment = moment * momentum + gradient``, then the step."""
    moment = moment * momentum + gradient
    if use_nesterov:
        return weight - (gradient + moment * momentum) * learning_rate, moment
    return weight - learning_rate * moment, moment


def kernel_nesterov(use_nesterov):
    """Whether the device target's ApplyMomentum kernel applies ``use_nesterov``: MindSpore 2.10's CPU kernel
    has no Nesterov branch (recorded: ``use_nesterov=True`` trains as plain momentum there, so mindyolo's
    ``nn.Momentum(use_nesterov=True)`` does), its GPU and Ascend kernels follow the documented rule."""
    return bool(use_nesterov) and get_context("device_target") != "CPU"


def momentum_step(weight, moment, learning_rate, gradient, momentum, use_nesterov=False):
    """``momentum_rule`` in the backend's form: on CPU one FFI call per parameter (``ops.lowering.momentum_cpu``:
    XLA:CPU would compile two update kernels for every parameter shape), bit-equal where XLA contracts the
    multiply-adds; elsewhere ``momentum_rule`` itself. ``use_nesterov`` as the device target's kernel takes it
    (``kernel_nesterov``)."""
    use_nesterov = kernel_nesterov(use_nesterov)
    if momentum_cpu.applies(weight, moment, learning_rate, gradient, momentum):
        return momentum_cpu.momentum(weight, moment, learning_rate, gradient, momentum, use_nesterov)
    return momentum_rule(weight, moment, learning_rate, gradient, momentum, use_nesterov)


def sgd_momentum_rule(gradient, buffer, first_step, momentum, dampening, nesterov):
    """SGD's momentum step, MindSpore's and PyTorch's alike: the buffer starts as the first gradient,
    then becomes ``momentum * buffer + (1 - dampening) * gradient``. Returns ``(direction, buffer)``;
    the direction is the buffer, or ``gradient + momentum * buffer`` with Nesterov."""
    buffer = jnp.where(first_step, gradient, momentum * buffer + (1 - dampening) * gradient)
    return (gradient + momentum * buffer if nesterov else buffer), buffer


def sgd_step(weights, accums, stats, gradients, rates, momentum, dampening=0.0, nesterov=False):
    """``nn.SGD``'s step for every parameter (lists of arrays; ``momentum`` a float32 scalar array, read when the
    step runs); returns the new ``(weights, accums, stats)`` lists. On CPU one FFI call per parameter
    (``ops.lowering.sgd_cpu``: XLA:CPU would compile the accumulator and weight updates for every parameter
    shape), bit-equal where XLA contracts the multiply-adds; elsewhere XLA's form: without momentum ``accum``
    and ``stat`` are left untouched (``update_if``: a select would read and rewrite, and copy, them all)."""
    if all(sgd_cpu.applies(*operands, momentum) for operands in zip(weights, accums, stats, gradients, rates)):
        results = [sgd_cpu.sgd(*operands, momentum, dampening, nesterov)
                   for operands in zip(weights, accums, stats, gradients, rates)]
        return [list(values) for values in zip(*results)] if results else ([], [], [])

    def seed_or_accumulate(state, gradients):
        accums, stats = state[:len(gradients)], state[len(gradients):]
        # ``stat`` marks the first step, whose gradient seeds the accumulator.
        accums = [sgd_momentum_rule(gradient, accum, stat > 0, momentum, dampening, False)[1]
                  for gradient, accum, stat in zip(gradients, accums, stats)]
        return accums + [jnp.zeros_like(stat) for stat in stats]

    state = update_if(momentum > 0, seed_or_accumulate, list(accums) + list(stats), gradients)
    accums, stats = state[:len(gradients)], state[len(gradients):]
    uses_momentum = momentum > 0
    new_weights = []
    for weight, gradient, rate, accum in zip(weights, gradients, rates, accums):
        direction = gradient + momentum * accum if nesterov else accum
        new_weights.append(weight - rate * jnp.where(uses_momentum, direction, gradient))
    return new_weights, accums, stats


def float32_share(beta):
    """``1 - beta`` as MindSpore's optimizers compute it from a Python-number beta: in float32 (their betas are
    float32 Tensors), so that ``1 - beta2`` and ``1 - beta2_power`` after one step are the same float32 number and
    the bias correction cancels exactly; a Python float (weakly typed: the update keeps the weight's dtype)."""
    if isinstance(beta, (int, float)) and not isinstance(beta, bool):
        return float(np.float32(1) - np.float32(beta))
    return 1 - beta


def adam_rule(weight, m, v, beta1_power, beta2_power, learning_rate, beta1, beta2, epsilon,
              gradient, use_nesterov=False):
    """MindSpore's Adam update with bias correction through ``beta1_power``/``beta2_power``."""
    m = m + (gradient - m) * float32_share(beta1)
    v = v + (gradient * gradient - v) * float32_share(beta2)
    step = learning_rate * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
    if use_nesterov:
        update = (m * beta1 + float32_share(beta1) * gradient) / (jnp.sqrt(v) + epsilon)
    else:
        update = m / (jnp.sqrt(v) + epsilon)
    return weight - step * update, m, v


def _numbers(*values):
    """Whether ``values`` are all Python numbers (constants of a compiled program, as the FFI handlers take them)."""
    return all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in values)


def adam_step(weight, m, v, beta1_power, beta2_power, learning_rate, beta1, beta2, epsilon, gradient,
              use_nesterov=False):
    """``adam_rule`` in the backend's form: on CPU one FFI call per parameter (``ops.lowering.adam_cpu``: XLA:CPU
    would compile the moment and weight updates for every parameter shape), bit-equal where XLA contracts the
    multiply-adds, for Python-number betas and epsilon without Nesterov; elsewhere ``adam_rule`` itself."""
    if not use_nesterov and _numbers(beta1, beta2, epsilon) and adam_cpu.applies(weight, m, v, gradient, learning_rate):
        step = learning_rate * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)  # as adam_rule computes it
        if step.dtype == jnp.float32 and step.size == 1:
            return adam_cpu.adam(weight, m, v, gradient, step, beta1, beta2, epsilon)
    return adam_rule(weight, m, v, beta1_power, beta2_power, learning_rate, beta1, beta2, epsilon, gradient,
                     use_nesterov)


def adam_amsgrad_rule(weight, m, v, vhat, beta1_power, beta2_power, learning_rate, beta1, beta2, epsilon, gradient):
    """Adam with AMSGrad: the denominator uses ``vhat``, the running maximum of the second moment."""
    m = beta1 * m + float32_share(beta1) * gradient
    v = beta2 * v + float32_share(beta2) * gradient * gradient
    vhat = jnp.maximum(vhat, v)
    step = learning_rate * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
    return weight - step * m / (jnp.sqrt(vhat) + epsilon), m, v, vhat


def apply_momentum(variable, accumulation, learning_rate, gradient, momentum, use_nesterov=False):
    """Update ``variable`` and ``accumulation`` by the momentum rule; returns the variable."""
    weight, moment = momentum_step(variable._value, accumulation._value, unwrap(learning_rate),
                                   unwrap(gradient), unwrap(momentum), use_nesterov)
    write(accumulation, moment, "ApplyMomentum")
    return write(variable, weight, "ApplyMomentum")


def apply_weight_scale_momentum(weight_decay, loss_scale, variable, accumulation, learning_rate, gradient, momentum):
    """MindSpore's FusedWeightScaleApplyMomentum, as ``nn.Momentum`` documents its steps: the gradient times
    ``loss_scale`` (the factor that undoes the loss scale: ``nn.Momentum`` passes ``1 / loss_scale``), plus
    ``weight_decay * variable``, then the ApplyMomentum step; returns the variable."""
    weight = variable._value
    gradient = unwrap(gradient) * unwrap(loss_scale) + unwrap(weight_decay) * weight
    new_weight, moment = momentum_rule(weight, accumulation._value, unwrap(learning_rate), gradient, unwrap(momentum))
    write(accumulation, moment.astype(accumulation._value.dtype), "FusedWeightScaleApplyMomentum")
    return write(variable, new_weight.astype(weight.dtype), "FusedWeightScaleApplyMomentum")


def apply_gradient_descent(variable, alpha, delta):
    """``variable -= alpha * delta``; returns the variable."""
    return write(variable, variable._value - unwrap(alpha) * unwrap(delta), "ApplyGradientDescent")


def apply_adam(variable, m, v, beta1_power, beta2_power, learning_rate, beta1, beta2, epsilon, gradient,
               use_nesterov=False):
    """Update ``variable``, ``m`` and ``v`` by Adam; returns ``(variable, m, v)``."""
    weight, new_m, new_v = adam_step(variable._value, m._value, v._value, unwrap(beta1_power),
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


def soft_threshold(value, threshold):
    """``sign(value) * max(|value| - threshold, 0)``: the proximal step of an L1 penalty."""
    return jnp.sign(value) * jnp.maximum(jnp.abs(value) - threshold, 0)


def adam_moments(m, v, gradient, beta1, beta2):
    """Adam's running first and second moments after ``gradient`` (no bias correction); returns ``(m, v)``.

    The shared moment math of ``AdamWeightDecay`` (Primitive and nn), nn's ``Lamb`` and ``mint.optim``'s Adam family.
    """
    return beta1 * m + (1 - beta1) * gradient, beta2 * v + (1 - beta2) * gradient * gradient


def adam_weight_decay_rule(weight, m, v, learning_rate, beta1, beta2, epsilon, gradient, decay=None):
    """AdamW without bias correction: ``weight -= lr * (m / (sqrt(v) + epsilon) + decay * weight)``
    (no decay term when ``decay`` is None); returns ``(weight, m, v)``. The gradient and weight enter in the
    moments' dtype (``FusedCastAdamWeightDecay``'s Float16 gradient with Float32 moments)."""
    m, v = adam_moments(m, v, gradient.astype(m.dtype), beta1, beta2)
    update = m / (jnp.sqrt(v) + epsilon)
    if decay is not None:
        update = update + decay * weight.astype(m.dtype)
    return weight - learning_rate * update, m, v


def adam_weight_decay_step(weight, m, v, learning_rate, beta1, beta2, epsilon, gradient, decay=None):
    """``adam_weight_decay_rule`` in the backend's form: on CPU one FFI call per parameter (``ops.lowering.adam_cpu``),
    bit-equal where XLA contracts the multiply-adds, for Python-number betas, epsilon and decay; elsewhere the
    rule itself."""
    if (_numbers(beta1, beta2, epsilon) and (decay is None or _numbers(decay))
            and adam_cpu.applies(weight, m, v, gradient, learning_rate)):
        return adam_cpu.adam_weight_decay(weight, m, v, gradient, learning_rate, beta1, beta2, epsilon, decay)
    return adam_weight_decay_rule(weight, m, v, learning_rate, beta1, beta2, epsilon, gradient, decay)


def adagrad_rule(weight, accum, learning_rate, gradient, update_slots=True, epsilon=None):
    """Adagrad: ``accum += gradient**2`` (when ``update_slots``), ``weight -= lr * gradient / (sqrt(accum) +
    epsilon)`` (no epsilon when None); returns ``(weight, accum)``."""
    if update_slots:
        accum = accum + gradient * gradient
    denominator = jnp.sqrt(accum) if epsilon is None else jnp.sqrt(accum) + epsilon
    return weight - learning_rate * gradient / denominator, accum


def rmsprop_rule(weight, mean_square, moment, learning_rate, gradient, decay, momentum, epsilon,
                 mean_gradient=None):
    """RMSProp: ``mean_square = decay * ms + (1 - decay) * g**2``; ``moment = momentum * moment + lr * g /
    sqrt(ms + epsilon)``; ``weight -= moment``. Centered when ``mean_gradient`` is given (its square is taken
    off the mean square). Returns ``(weight, mean_square, moment, mean_gradient)``.

    Uncentered, MindSpore 2.10's CPU kernel divides by ``sqrt(ms) + epsilon`` in its vectorised loop (blocks of
    8 floats from the start of the flattened tensor) and by ``sqrt(ms + epsilon)`` only in the last
    ``size % 8`` elements; the rule does the same, so training with a large epsilon (InceptionV3's 1.0) follows
    MindSpore step for step.
    """
    mean_square = decay * mean_square + (1 - decay) * gradient * gradient
    if mean_gradient is not None:
        mean_gradient = decay * mean_gradient + (1 - decay) * gradient
        root = jnp.sqrt(mean_square + epsilon - mean_gradient * mean_gradient)
    else:
        size = math.prod(jnp.shape(mean_square))
        vectorised = jnp.arange(size).reshape(jnp.shape(mean_square)) < size // 8 * 8
        root = jnp.where(vectorised, jnp.sqrt(mean_square) + epsilon, jnp.sqrt(mean_square + epsilon))
    moment = momentum * moment + learning_rate * gradient / root
    return weight - moment, mean_square, moment, mean_gradient


def adamax_rule(weight, m, v, beta1_power, learning_rate, beta1, beta2, epsilon, gradient):
    """AdaMax: ``m = beta1 m + (1 - beta1) g``; ``v = max(beta2 v, |g|)``; ``weight -= lr / (1 - beta1_power)
    * m / (v + epsilon)``. Returns ``(weight, m, v)``."""
    m = beta1 * m + (1 - beta1) * gradient
    v = jnp.maximum(beta2 * v, jnp.abs(gradient))
    step = learning_rate / (1 - beta1_power) * m / (v + epsilon)
    return weight - step.astype(weight.dtype), m, v


def _divide_exactly(numerator, denominator):
    """``numerator / denominator`` correctly rounded. XLA rewrites a division by a broadcast scalar into a
    multiplication by its reciprocal, an ulp away from MindSpore's kernels (which divide); a full-shape divisor
    behind an optimization barrier keeps the division."""
    divisor = jnp.broadcast_to(jnp.asarray(denominator, numerator.dtype), numerator.shape)
    return numerator / jax.lax.optimization_barrier(divisor)


def ftrl_rule(weight, accum, linear, gradient, rate, l1, l2, lr_power, shrunk_gradient=None):
    """One FTRL-Proximal step (McMahan et al., 2013); returns ``(weight, accum, linear)``.

    ``shrunk_gradient`` (``gradient + 2 * l2_shrinkage * weight``, FtrlV2) enters ``linear`` in place of
    the gradient; the accumulator always takes the gradient itself."""
    new_accum = accum + gradient * gradient
    power = -lr_power
    sigma = _divide_exactly(jnp.power(new_accum, power) - jnp.power(accum, power), rate)
    new_linear = linear + (gradient if shrunk_gradient is None else shrunk_gradient) - sigma * weight
    quadratic = _divide_exactly(jnp.power(new_accum, power), rate) + 2.0 * l2
    shrunk = (jnp.sign(new_linear) * l1 - new_linear) / quadratic
    new_weight = jnp.where(jnp.abs(new_linear) > l1, shrunk, jnp.zeros_like(shrunk))
    return new_weight.astype(weight.dtype), new_accum, new_linear


def proximal_adagrad_rule(weight, accum, learning_rate, l1, l2, gradient):
    """Proximal Adagrad: ``accum += g**2``; with ``r = lr / sqrt(accum)`` (which also scales the L1 and L2
    terms, as TensorFlow's kernel), ``weight = soft_threshold(weight - r g, r l1) / (1 + r l2)``.
    Returns ``(weight, accum)``."""
    accum = accum + gradient * gradient
    rate = learning_rate / jnp.sqrt(accum)
    return soft_threshold(weight - rate * gradient, rate * l1) / (1 + rate * l2), accum


def _root_mean_square(value):
    return jnp.sqrt(jnp.mean(value * value))


def adafactor_rule(param, gradient, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq, epsilon, clip_threshold,
                   beta1, beta2, weight_decay, learning_rate, scale_parameter=False, first_moment=False,
                   decay_weight=False, global_norm=None):
    """One Adafactor step as MindSpore's ``FusedAdaFactor`` kernel computes it, in Float32: factored second
    moments (row and column means) for a matrix, a full one for a vector, the update clipped by its RMS over
    ``clip_threshold``, scaled by ``max(eps2, RMS(param))`` when ``scale_parameter``; ``global_norm`` (when given)
    divides the gradient first. Returns ``(param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)``."""
    eps1, eps2 = epsilon
    param = param.astype(jnp.float32)
    gradient = gradient.astype(jnp.float32)
    if global_norm is not None:
        gradient = gradient / global_norm
    squared = gradient * gradient + eps1
    if param.ndim >= 2:
        exp_avg_sq_row = beta2 * exp_avg_sq_row + (1 - beta2) * squared.mean(-1)
        exp_avg_sq_col = beta2 * exp_avg_sq_col + (1 - beta2) * squared.mean(-2)
        row_share = exp_avg_sq_row / exp_avg_sq_row.mean(-1, keepdims=True)
        update = gradient / jnp.sqrt(row_share[..., None] * exp_avg_sq_col[..., None, :])
    else:
        exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * squared
        update = gradient / jnp.sqrt(exp_avg_sq)
    update = update / jnp.maximum(1.0, _root_mean_square(update) / clip_threshold)
    step = learning_rate * (jnp.maximum(eps2, _root_mean_square(param)) if scale_parameter else 1.0)
    update = update * step
    if first_moment:
        update = beta1 * exp_avg + (1 - beta1) * update
        exp_avg = update
    if decay_weight:
        param = param - weight_decay * step * param
    return param - update, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq


def adagrad_dual_averaging_rule(gradient_accumulator, gradient_squared_accumulator, gradient, learning_rate, l1, l2,
                                global_step):
    """Adagrad dual averaging (``ApplyAdagradDA``): the weight is recomputed from the accumulated gradients,
    ``-lr * shrink(sum g, l1 * step) / (l2 * step * lr + sqrt(sum g**2))`` (no shrinking when ``l1 <= 0``).
    Returns ``(weight, gradient_accumulator, gradient_squared_accumulator)``."""
    total = gradient_accumulator + gradient
    squares = gradient_squared_accumulator + gradient * gradient
    shrunk = jnp.where(l1 > 0, soft_threshold(total, l1 * global_step), total)
    weight = -learning_rate * shrunk / (l2 * global_step * learning_rate + jnp.sqrt(squares))
    return weight, total, squares


def sign_rule(weight, m, learning_rate, sign_decay, beta, gradient, alpha=None, logbase=None):
    """AddSign (``alpha`` given: ``weight -= lr (alpha + sign_decay sign(g) sign(m)) g``) or PowerSign
    (``logbase`` given: ``weight -= lr exp(logbase sign_decay sign(g) sign(m)) g``), after
    ``m = beta m + (1 - beta) g``. Returns ``(weight, m)``."""
    m = beta * m + (1 - beta) * gradient
    agreement = sign_decay * jnp.sign(gradient) * jnp.sign(m)
    scale = alpha + agreement if logbase is None else jnp.exp(logbase * agreement)
    return weight - learning_rate * scale * gradient, m


def sparse_adagrad_rule(weight, accum, learning_rate, gradient, update_slots=True, epsilon=0.0):
    """Adagrad as MindSpore's ``SparseApplyAdagrad(V2)`` kernels compute it on the gathered rows: ``accum +=
    gradient**2`` (when ``update_slots``), ``weight -= lr * gradient / sqrt(accum + epsilon)`` (epsilon inside the
    root, unlike ``ApplyAdagradV2``). Returns ``(weight, accum)``."""
    if update_slots:
        accum = accum + gradient * gradient
    return weight - learning_rate * gradient / jnp.sqrt(accum + epsilon), accum


def sparse_proximal_adagrad_rule(weight, accum, learning_rate, l1, l2, gradient):
    """Proximal Adagrad as ``SparseApplyProximalAdagrad`` computes it: ``accum += g**2``; the Adagrad step
    ``weight - lr g / sqrt(accum)`` is soft-thresholded by ``lr * l1`` and divided by ``1 + lr * l2`` (the plain
    learning rate scales the penalties). Returns ``(weight, accum)``."""
    accum = accum + gradient * gradient
    proximal = weight - learning_rate * gradient / jnp.sqrt(accum)
    return soft_threshold(proximal, learning_rate * l1) / (1 + learning_rate * l2), accum


def sgd_rule(weight, gradient, accum, stat, learning_rate, momentum, dampening=0.0, weight_decay=0.0,
             nesterov=False):
    """MindSpore's ``SGD`` Primitive (PyTorch's rule): weight decay enters the gradient; ``accum`` starts at the
    gradient where ``stat > 0`` (the first step), else ``momentum * accum + (1 - dampening) * g``; Nesterov steps
    by ``g + momentum * accum``. Returns ``(weight, accum, stat)`` with ``stat`` cleared."""
    if weight_decay:
        gradient = gradient + weight_decay * weight
    accum = jnp.where(stat > 0, gradient, momentum * accum + (1 - dampening) * gradient)
    step = gradient + momentum * accum if nesterov else accum
    return weight - learning_rate * step, accum, jnp.zeros_like(stat)


def lars_rule(weight, gradient, norm_weight, norm_gradient, weight_decay, epsilon, hyperpara):
    """LARS: ``coefficient * (gradient + weight_decay * weight)`` with ``coefficient = hyperpara * |w| / (|g| +
    weight_decay * |w| + epsilon)`` from the squared norms given, 1 where either norm is 0."""
    weight_norm, gradient_norm = jnp.sqrt(norm_weight), jnp.sqrt(norm_gradient)
    coefficient = hyperpara * weight_norm / (gradient_norm + weight_decay * weight_norm + epsilon)
    coefficient = jnp.where((weight_norm > 0) & (gradient_norm > 0), coefficient, 1.0)
    return (coefficient * (gradient + weight_decay * weight)).astype(weight.dtype)


def dense_row_gradient(weight, indices, gradient):
    """The dense gradient of ``weight`` from a row-sparse one (``gradient[i]`` belongs to row ``indices[i]``;
    duplicate rows add up, rows not named get 0), in the weight's dtype."""
    return jnp.zeros_like(weight).at[indices.reshape(-1)].add(gradient.astype(weight.dtype))
