"""The Adam family: ``Adam``, ``AdamW``, ``Adamax``, ``NAdam``, ``RAdam`` (PyTorch's formulations)."""
import jax.numpy as jnp
import numpy as np

from sporax.core.parameter import Parameter, ParameterTuple
from sporax.core.tensor import Tensor
from sporax.mint.optim.optimizer import Optimizer, check_betas, check_range, documented
from sporax.ops.functional.update import adam_rule


@documented
class Adam(Optimizer):
    """Adam: bias-corrected first and second moments, optional AMSGrad, L2 weight decay.

    Args:
        amsgrad (bool): use the running maximum of the second moment.
    """

    _state_names = ("exp_avg", "exp_avg_sq", "max_exp_avg_sq")
    # MindSpore 2.10's experimental Adam runs the ops.Adam kernel: eps outside the bias correction
    # of the second moment, and amsgrad accepted but not applied (see ``experimental.Adam``).
    _adam_kernel = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
                 maximize=False):
        name = type(self).__name__
        check_range(name, lr=lr, eps=eps, weight_decay=weight_decay)
        check_betas(name, betas)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))

    def _update(self, group, lr, index, value, gradient, step):
        beta1, beta2 = group["betas"]
        if self._decoupled_weight_decay:
            value = value * (1 - lr * group["weight_decay"])
        if self._adam_kernel:
            value, exp_avg, exp_avg_sq = adam_rule(value, self._state("exp_avg", index),
                                                   self._state("exp_avg_sq", index), beta1 ** step, beta2 ** step,
                                                   lr, beta1, beta2, group["eps"], gradient)
            self._store("exp_avg", index, exp_avg)
            self._store("exp_avg_sq", index, exp_avg_sq)
            return value
        exp_avg, exp_avg_sq = self._moments(index, gradient, beta1, beta2)
        second = exp_avg_sq
        if group["amsgrad"]:
            second = jnp.maximum(self._state("max_exp_avg_sq", index), exp_avg_sq)
            self._store("max_exp_avg_sq", index, second)
        denominator = jnp.sqrt(second) / jnp.sqrt(1 - beta2 ** step) + group["eps"]
        return value - lr / (1 - beta1 ** step) * exp_avg / denominator


@documented
class AdamW(Adam):
    """Adam with decoupled weight decay: ``param *= 1 - lr * weight_decay`` before the Adam step.

    Args:
        weight_decay (float): decays the parameter (above) instead of entering the gradient.
        amsgrad (bool): use the running maximum of the second moment.
    """

    _decoupled_weight_decay = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class FusedAdamW(AdamW):
    """``AdamW`` under the name of MindSpore's fused kernel (XLA fuses the same update here).

    Args, Inputs: as ``AdamW``.

    Example:
        >>> import sporax as ms
        >>> optimizer = FusedAdamW(ms.nn.Dense(3, 2).trainable_params())
    """


@documented
class Adamax(Optimizer):
    """Adamax: Adam with the infinity norm in place of the second moment.

    Args:
        betas (tuple[float, float]): decay rates of the running average of the gradient and of the
            infinity norm.
    """

    _state_names = ("exp_avg", "exp_inf")

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *, maximize=False):
        check_range("Adamax", lr=lr, eps=eps, weight_decay=weight_decay)
        check_betas("Adamax", betas)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      maximize=maximize))

    def _update(self, group, lr, index, value, gradient, step):
        beta1, beta2 = group["betas"]
        exp_avg = beta1 * self._state("exp_avg", index) + (1 - beta1) * gradient
        exp_inf = jnp.maximum(beta2 * self._state("exp_inf", index), jnp.abs(gradient) + group["eps"])
        self._store("exp_avg", index, exp_avg)
        self._store("exp_inf", index, exp_inf)
        return value - lr / (1 - beta1 ** step) * exp_avg / exp_inf


@documented
class NAdam(Optimizer):
    """NAdam: Adam with Nesterov momentum and a momentum-decay schedule.

    Args:
        momentum_decay (float): the step ``t`` uses momentum ``beta1 * (1 - 0.96 ** (t * momentum_decay) / 2)``.
    """

    _state_names = ("exp_avg", "exp_avg_sq", "mu_product")

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, momentum_decay=4e-3):
        check_range("NAdam", lr=lr, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay)
        check_betas("NAdam", betas)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay))

    def _initial_state(self, state_name, parameters):
        if state_name != "mu_product":
            return super()._initial_state(state_name, parameters)
        # The product of the momentum schedule so far, one scalar per parameter as in PyTorch.
        return ParameterTuple([Parameter(Tensor(np.ones((), np.float32)), name=f"mu_product.{p.name}",
                                         requires_grad=False) for p in parameters])

    def _update(self, group, lr, index, value, gradient, step):
        beta1, beta2 = group["betas"]
        mu = beta1 * (1 - 0.5 * 0.96 ** (step * group["momentum_decay"]))
        mu_next = beta1 * (1 - 0.5 * 0.96 ** ((step + 1) * group["momentum_decay"]))
        mu_product = self._state("mu_product", index) * mu
        self._store("mu_product", index, mu_product)
        exp_avg, exp_avg_sq = self._moments(index, gradient, beta1, beta2)
        denominator = jnp.sqrt(exp_avg_sq / (1 - beta2 ** step)) + group["eps"]
        value = value - lr * (1 - mu) / (1 - mu_product) * gradient / denominator
        return value - lr * mu_next / (1 - mu_product * mu_next) * exp_avg / denominator


@documented
class RAdam(Optimizer):
    """RAdam: Adam with the variance of the adaptive learning rate rectified in early steps."""

    _state_names = ("exp_avg", "exp_avg_sq")

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        check_range("RAdam", lr=lr, eps=eps, weight_decay=weight_decay)
        check_betas("RAdam", betas)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay))

    def _update(self, group, lr, index, value, gradient, step):
        beta1, beta2 = group["betas"]
        exp_avg, exp_avg_sq = self._moments(index, gradient, beta1, beta2)
        corrected = exp_avg / (1 - beta1 ** step)
        rho_inf = 2 / (1 - beta2) - 1
        rho = rho_inf - 2 * step * beta2 ** step / (1 - beta2 ** step)
        safe_rho = jnp.maximum(rho, 5.0 + 1e-3)
        rect = jnp.sqrt((safe_rho - 4) * (safe_rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * safe_rho))
        adaptive = jnp.sqrt(1 - beta2 ** step) / (jnp.sqrt(exp_avg_sq) + group["eps"])
        return value - lr * corrected * jnp.where(rho > 5, rect * adaptive, 1.0)
