"""FTRL: Follow The Regularized Leader, the online learning optimizer of wide linear models."""
import numpy as np

from sporax import ops
from sporax.core.tensor import Tensor
from sporax.nn.optim.optimizer import Optimizer, documented
from sporax.ops.functional.update import ftrl_rule
from sporax.state.assign import write


def _non_negative(value, name, allow_zero=True):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (not allow_zero and value == 0):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"For 'FTRL', {name} must be a float {bound}, got {value!r}.")
    return float(value)


@documented
class FTRL(Optimizer):
    """FTRL-Proximal: per-coordinate adaptive rates with L1/L2 regularization (sparse weights).

    With ``accum`` the sum of squared gradients and ``linear`` the FTRL accumulator, each step does::

        accum_new = accum + g * g
        linear += g - (accum_new ** -lr_power - accum ** -lr_power) / lr * w
        w = (sign(linear) * l1 - linear) / (accum_new ** -lr_power / lr + 2 * l2)  if |linear| > l1  else 0

    Group learning rates are not supported.

    Args:
        initial_accum (float): starting value of ``accum``, >= 0.
        learning_rate (float): > 0.
        lr_power (float): <= 0, the rate's power of ``accum``.
        l1 (float): L1 regularization strength, >= 0.
        l2 (float): L2 regularization strength, >= 0.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(3, 1)
        >>> opt = ms.nn.FTRL(net.trainable_params(), learning_rate=0.1, l1=0.01)
    """

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        if not isinstance(learning_rate, (int, float)) or isinstance(learning_rate, bool):
            raise TypeError(f"For 'FTRL', learning_rate must be a float (FTRL takes no schedule), "
                            f"got {type(learning_rate).__name__}.")
        _non_negative(learning_rate, "learning_rate", allow_zero=False)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if self.is_group_lr:
            raise RuntimeError("For 'FTRL', parameter groups with their own 'lr' are not supported.")
        if isinstance(lr_power, bool) or not isinstance(lr_power, (int, float)) or lr_power > 0:
            raise ValueError(f"For 'FTRL', lr_power must be a float <= 0, got {lr_power!r}.")
        self.initial_accum = _non_negative(initial_accum, "initial_accum")
        self.lr_power = float(lr_power)
        self.l1 = _non_negative(l1, "l1")
        self.l2 = _non_negative(l2, "l2")
        self.use_locking = bool(use_locking)
        self.moments = self.parameters.clone(prefix="moments", init=self.initial_accum)
        self.linear = self.parameters.clone(prefix="linear", init="zeros")

    def construct(self, grads):
        # Decay (scaled by loss_scale, as MindSpore stores it) then unscale: g / loss_scale + decay * w.
        grads = self.scale_grad(self.decay_weight(self._gradients_for_parameters(grads)))
        rate = self.get_lr()
        ops.assign_add(self.global_step, Tensor(np.ones(1, np.int32)))
        rates = (rate,) * len(self.parameters)
        for parameter, accum, linear, gradient, rate in zip(self.parameters, self.moments, self.linear,
                                                            grads, rates):
            weight, new_accum, new_linear = ftrl_rule(parameter._value, accum._value, linear._value,
                                                      gradient._value, rate._value, self.l1, self.l2,
                                                      self.lr_power)
            write(accum, new_accum, "FTRL")
            write(linear, new_linear, "FTRL")
            write(parameter, weight, "FTRL")
        return True
