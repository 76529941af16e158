"""Adaptive optimizers: Adam (and its aliases LazyAdam, AdamOffload), AdamWeightDecay, RMSProp, Adagrad, Lamb."""
import jax.numpy as jnp
import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor, unwrap
from sporax.nn.cell import Cell
from sporax.nn.optim.optimizer import Optimizer, _default_decay_filter, documented
from sporax.ops.functional.update import (adagrad_rule, adam_amsgrad_rule, adam_moments, adam_step,
                                          adam_weight_decay_step, rmsprop_rule)
from sporax.state.assign import write


def _check_betas(beta1, beta2, eps, cell):
    if not 0.0 <= beta1 < 1.0 or not 0.0 <= beta2 < 1.0:
        raise ValueError(f"For '{cell}', beta1 and beta2 must be in [0, 1), got {beta1}, {beta2}.")
    if eps <= 0:
        raise ValueError(f"For '{cell}', eps must be > 0, got {eps}.")


def _adam_variant(options, use_amsgrad):
    """``use_lazy``/``use_offload`` from Adam's keyword options, refused as MindSpore refuses them."""
    unknown = set(options) - {"use_lazy", "use_offload"}
    if unknown:
        raise KeyError(f"For 'Adam', invalid keys are passed as kwargs, supported keys are 'use_lazy' and "
                       f"'use_offload', but got {sorted(unknown)}.")
    use_lazy, use_offload = options.get("use_lazy", False), options.get("use_offload", False)
    for name, value in (("use_lazy", use_lazy), ("use_offload", use_offload)):
        if not isinstance(value, bool):
            raise TypeError(f"For 'Adam', the type of '{name}' should be 'bool', but got type "
                            f"'{type(value).__name__}'.")
    if use_lazy and use_offload:
        raise ValueError(f"For 'Adam', 'use_lazy' and 'use_offload' can not both be True. But got "
                         f"use_lazy={use_lazy}, use_offload={use_offload}.")
    if use_amsgrad and (use_lazy or use_offload):
        raise ValueError("For lazy Adam and Adam with offload, there is no parameter named 'use_amsgrad'. but "
                         f"got 'use_amsgrad'={use_amsgrad}.")
    return use_lazy, use_offload


@documented
class Adam(Optimizer):
    """Adam with bias correction (``beta1_power``/``beta2_power`` state, as MindSpore saves it).

    Args:
        use_nesterov (bool): use Nesterov momentum.
        use_amsgrad (bool): AMSGrad: divide by ``vhat``, the running maximum of the second moment (kept as
            ``vhat.<name>`` state, as MindSpore saves it); ``use_nesterov`` is then ignored, as in MindSpore.

    Example:
        >>> import numpy as np
        >>> from sporax import nn, Tensor, Parameter
        >>> weight = Parameter(Tensor(np.array([0.5, -1.0], np.float32)), name="w")
        >>> optimizer = nn.Adam([weight], learning_rate=0.1, use_amsgrad=True)
        >>> _ = optimizer((Tensor(np.array([1.0, -2.0], np.float32)),))
        >>> np.round(weight.asnumpy(), 4)
        array([ 0.4, -0.9], dtype=float32)
    """

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas(beta1, beta2, eps, "Adam")
        use_lazy, use_offload = _adam_variant(kwargs, use_amsgrad)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        # Read by Adam subclasses' own construct (mindflow's AdaHessian): with use_offload MindSpore skips
        # gradients_centralization; the update itself is the same dense one here either way.
        self.use_lazy, self.use_offload = use_lazy, use_offload
        self.beta1_power = Parameter(Tensor(np.float32(1.0)), name="beta1_power")
        self.beta2_power = Parameter(Tensor(np.float32(1.0)), name="beta2_power")
        self.moment1 = self.parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self.parameters.clone(prefix="moment2", init="zeros")
        self.use_amsgrad = use_amsgrad
        if use_amsgrad:
            self.vhat = self.parameters.clone(prefix="vhat", init="zeros")

    def construct(self, gradients):
        gradients, rates = self._advance(gradients)
        beta1_power = self.beta1_power._value * self.beta1
        beta2_power = self.beta2_power._value * self.beta2
        write(self.beta1_power, beta1_power, "Adam")
        write(self.beta2_power, beta2_power, "Adam")
        return self._apply_adam(self.parameters, beta1_power, beta2_power, self.moment1, self.moment2, rates,
                                gradients)

    def _apply_adam(self, params, beta1_power, beta2_power, moment1, moment2, lr, gradients):
        """The Adam update of ``params`` and their moments with this step's bias-correction powers.

        MindSpore's hook for Adam subclasses that prepare the gradients and moments themselves (mindflow's
        AdaHessian): ``lr`` is this step's rate, one per parameter with group rates; the powers are the
        already advanced ``beta1_power``/``beta2_power`` (Tensors or arrays).
        """
        beta1_power, beta2_power = (power._value if isinstance(power, Tensor) else power
                                    for power in (beta1_power, beta2_power))
        rates = tuple(lr) if isinstance(lr, (tuple, list)) else (lr,) * len(params)
        if self.use_amsgrad:
            for parameter, m, v, vhat, gradient, rate in zip(params, moment1, moment2, self.vhat, gradients, rates):
                weight, new_m, new_v, new_vhat = adam_amsgrad_rule(
                    parameter._value, m._value, v._value, vhat._value, beta1_power, beta2_power, rate._value,
                    self.beta1, self.beta2, self.eps, gradient._value)
                write(m, new_m, "Adam")
                write(v, new_v, "Adam")
                write(vhat, new_vhat, "Adam")
                write(parameter, weight, "Adam")
            return True
        for parameter, m, v, gradient, rate in zip(params, moment1, moment2, gradients, rates):
            weight, new_m, new_v = adam_step(parameter._value, m._value, v._value, beta1_power, beta2_power,
                                             rate._value, self.beta1, self.beta2, self.eps, gradient._value,
                                             self.use_nesterov)
            write(m, new_m, "Adam")
            write(v, new_v, "Adam")
            write(parameter, weight, "Adam")
        return True


@documented
class AdamWeightDecay(Optimizer):
    """Adam without bias correction and with decoupled weight decay (``param -= lr * (update + wd * param)``).

    Args:
        weight_decay (float): decoupled decay, not applied to parameters named beta/gamma.
    """

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_betas(beta1, beta2, eps, "AdamWeightDecay")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        # The decay is decoupled (applied in the update, not added to the gradients); a group without its own
        # 'weight_decay' takes the optimizer's, as in MindSpore.
        self._decoupled = list(self._decays)
        self._decays = [0.0] * len(self.parameters)
        self.exec_weight_decay = False
        self.weight_decay = weight_decay
        self.moments1 = self.parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self.parameters.clone(prefix="adam_v", init="zeros")

    def construct(self, gradients):
        # As MindSpore: a weight-decay schedule (Cell) is read at this step, before the step advances.
        decays = tuple(unwrap(decay(self.global_step)) if callable(decay) else decay if decay else None
                       for decay in self._decoupled)
        gradients, rates = self._advance(gradients)
        for parameter, m, v, gradient, rate, decay, flag in zip(
                self.parameters, self.moments1, self.moments2, gradients, rates, decays, self.decay_flags):
            weight, new_m, new_v = adam_weight_decay_step(
                parameter._value, m._value, v._value, rate._value, self.beta1, self.beta2, self.eps, gradient._value,
                decay if flag or self.is_group else None)
            write(m, new_m, "AdamWeightDecay")
            write(v, new_v, "AdamWeightDecay")
            write(parameter, weight, "AdamWeightDecay")
        return True


@documented
class RMSProp(Optimizer):
    """RMSProp: ``ms = decay*ms + (1-decay)*g^2``; ``mom = momentum*mom + lr*g/sqrt(ms+eps)``; ``param -= mom``.

    Args:
        decay (float): decay rate of the mean square, >= 0.
        momentum (float): momentum factor, >= 0.
        epsilon (float): added to the mean square, > 0.
        centered (bool): subtract the squared mean gradient.
    """

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if epsilon <= 0 or momentum < 0 or decay < 0:
            raise ValueError("For 'RMSProp', need epsilon > 0, momentum >= 0 and decay >= 0.")
        self.decay, self.momentum, self.epsilon, self.centered = decay, momentum, epsilon, centered
        if centered:
            self.mg = self.parameters.clone(prefix="mean_grad", init="zeros")
        self.ms = self.parameters.clone(prefix="mean_square", init="ones")
        self.moment = self.parameters.clone(prefix="moment", init="zeros")

    def construct(self, gradients):
        gradients, rates = self._advance(gradients)
        for index, (parameter, ms, moment, gradient, rate) in enumerate(
                zip(self.parameters, self.ms, self.moment, gradients, rates)):
            mean_gradient = self.mg[index] if self.centered else None
            weight, new_ms, new_moment, new_mg = rmsprop_rule(
                parameter._value, ms._value, moment._value, rate._value, gradient._value, self.decay, self.momentum,
                self.epsilon, None if mean_gradient is None else mean_gradient._value)
            if mean_gradient is not None:
                write(mean_gradient, new_mg, "RMSProp")
            write(ms, new_ms, "RMSProp")
            write(moment, new_moment, "RMSProp")
            write(parameter, weight, "RMSProp")
        return True


@documented
class Adagrad(Optimizer):
    """Adagrad: ``accum += g^2``; ``param -= lr * g / sqrt(accum)``.

    Args:
        accum (float): initial accumulator value, >= 0.
        update_slots (bool): update the accumulator.
    """

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if accum < 0:
            raise ValueError(f"For 'Adagrad', accum must be >= 0, got {accum}.")
        self.update_slots = update_slots
        self.accum = self.parameters.clone(prefix="accum", init=float(accum))

    def construct(self, gradients):
        gradients, rates = self._advance(gradients)
        for parameter, accum, gradient, rate in zip(self.parameters, self.accum, gradients, rates):
            weight, new_accum = adagrad_rule(parameter._value, accum._value, rate._value, gradient._value,
                                             self.update_slots)
            write(accum, new_accum, "Adagrad")
            write(parameter, weight, "Adagrad")
        return True


@documented
class Lamb(Optimizer):
    """LAMB: Adam's bias-corrected update scaled per parameter by ``||param|| / ||update||``.

    Args:
        weight_decay (float): decoupled decay, not applied to parameters named beta/gamma.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(3, 2)
        >>> opt = ms.nn.Lamb(net.trainable_params(), learning_rate=0.01)
    """

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, 0.0)
        _check_betas(beta1, beta2, eps, "Lamb")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.weight_decay = float(weight_decay)
        self.moments1 = self.parameters.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.parameters.clone(prefix="lamb_v", init="zeros")

    def construct(self, gradients):
        step = (self.global_step._value.reshape(()) + 1).astype(jnp.float32)
        gradients, rates = self._advance(gradients)
        for parameter, m, v, gradient, rate in zip(self.parameters, self.moments1, self.moments2, gradients, rates):
            weight = parameter._value
            new_m, new_v = adam_moments(m._value, v._value, gradient._value, self.beta1, self.beta2)
            m_hat = new_m / (1 - self.beta1 ** step)
            v_hat = new_v / (1 - self.beta2 ** step)
            update = m_hat / (jnp.sqrt(v_hat) + self.eps)
            if self.weight_decay and _default_decay_filter(parameter):
                update = update + self.weight_decay * weight
            weight_norm = jnp.linalg.norm(weight)
            update_norm = jnp.linalg.norm(update)
            ratio = jnp.where((weight_norm > 0) & (update_norm > 0), weight_norm / update_norm, 1.0)
            write(m, new_m, "Lamb")
            write(v, new_v, "Lamb")
            write(parameter, weight - rate._value * ratio * update, "Lamb")
        return True


class LazyAdam(Adam):
    """Adam whose MindSpore kernel updates only the gradient's rows for sparse gradients; on the
    dense gradients sporax computes it is exactly ``Adam`` (see ``Adam`` for the arguments).

    Example:
        >>> import sporax as ms
        >>> opt = ms.nn.LazyAdam(ms.nn.Dense(3, 2).trainable_params(), learning_rate=0.01)
    """

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        if isinstance(weight_decay, Cell):
            # As MindSpore: a schedule is refused here, though a parameter group may still carry one.
            raise TypeError(f"For 'LazyAdam', the type of 'weight_decay' should be 'float', but got type "
                            f"'{type(weight_decay).__name__}'.")
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)


class AdamOffload(Adam):
    """Adam that MindSpore computes on the host to save device memory; the update is ``Adam``'s
    (see ``Adam`` for the arguments).

    Example:
        >>> import sporax as ms
        >>> opt = ms.nn.AdamOffload(ms.nn.Dense(3, 2).trainable_params())
    """

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)
