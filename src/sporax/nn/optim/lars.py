"""``nn.LARS``: layer-wise adaptive rate scaling around another optimizer.

LARS takes over the wrapped optimizer's weight decay and loss-scale division, and replaces each
selected gradient ``g`` of a weight ``w`` (``lars_filter``) by

    trust * (g + weight_decay * w),    trust = coefficient * ||w|| / (||g|| + weight_decay * ||w|| + epsilon)

(``trust`` = 1 when ||w|| or ||g|| is 0; with ``use_clip`` it becomes ``min(trust / lr, 1)``), ``g``
already divided by the optimizer's loss scale, then lets the optimizer apply its rule
(You, Gitman and Ginsburg, "Large batch training of convolutional networks", 2017). Parameters
the filter leaves out (by default biases and LayerNorm parameters) keep their plain gradient.
"""
import jax.numpy as jnp

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.optim.optimizer import Optimizer


def _default_lars_filter(parameter):
    return "LayerNorm" not in parameter.name and "bias" not in parameter.name


def _lars_gradient(weight, gradient, weight_decay, learning_rate, epsilon, coefficient, use_clip):
    weight_norm = jnp.sqrt(jnp.sum(jnp.square(weight)))
    gradient_norm = jnp.sqrt(jnp.sum(jnp.square(gradient)))
    trust = coefficient * weight_norm / (gradient_norm + weight_decay * weight_norm + epsilon)
    trust = jnp.where((weight_norm > 0) & (gradient_norm > 0), trust, 1.0)
    if use_clip:
        trust = jnp.minimum(trust / learning_rate, 1.0)
    return (trust * (gradient + weight_decay * weight)).astype(gradient.dtype)


class LARS(Optimizer):
    """Wrap an optimizer with LARS: scale each layer's gradient by its trust ratio before updating.

    Args:
        optimizer (Optimizer): the optimizer to wrap (its weight decay moves into LARS).
        epsilon (float): added to the trust ratio's denominator. Default: 1e-05.
        coefficient (float): the trust coefficient. Default: 0.001.
        use_clip (bool): clip the local rate ``trust / lr`` at 1. Default: False.
        lars_filter (Callable[[Parameter], bool]): which parameters LARS scales. Default: not
            LayerNorm parameters and not biases.

    Inputs:
        - **gradients** (tuple[Tensor]) -- one per parameter of ``optimizer``.

    Outputs:
        What ``optimizer`` returns.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(3, 2)
        >>> lars = ms.nn.LARS(ms.nn.Momentum(net.trainable_params(), 0.1, 0.9), coefficient=0.02)
    """

    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False, lars_filter=_default_lars_filter):
        super().__init__(0.0, [Parameter(Tensor(0.0), name="fake_param")])
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"For 'LARS', the 'optimizer' must be an Optimizer, but got {type(optimizer).__name__}.")
        for name, value, kind in (("epsilon", epsilon, float), ("coefficient", coefficient, float),
                                  ("use_clip", use_clip, bool)):
            if not isinstance(value, kind) or (kind is float and isinstance(value, bool)):
                raise TypeError(f"For 'LARS', the '{name}' must be {kind.__name__}, but got {type(value).__name__}.")
        if use_clip and optimizer.is_group_lr and optimizer.dynamic_lr:
            raise ValueError("For 'LARS', if the argument 'use_clip' is set to True, then the dynamic learning rate "
                             "and group learning rate cannot both be true.")
        self.opt = optimizer
        self.epsilon, self.coefficient, self.use_clip = epsilon, coefficient, use_clip
        self.parameters = optimizer.parameters
        self.lars_flag = tuple(bool(lars_filter(parameter)) for parameter in self.parameters)
        self.decay_flags = optimizer.decay_flags
        self._lars_decays = optimizer._decays
        self._lars_is_group = optimizer.is_group
        self._lars_loss_scale = optimizer.loss_scale
        # LARS applies the decay and the loss-scale division itself.
        optimizer.exec_weight_decay = False
        optimizer.decay_flags = tuple(False for _ in self.decay_flags)
        optimizer.reciprocal_scale = 1.0
        optimizer.loss_scale = 1.0

    def construct(self, gradients):
        gradients = tuple(gradients)
        if self._lars_loss_scale != 1.0:
            gradients = tuple(gradient / self._lars_loss_scale for gradient in gradients)
        rates = (None,) * len(gradients)
        if self.use_clip:
            current = self.opt._rate(self.opt.learning_rate) if not self.opt.is_group_lr else None
            if current is None:
                table = tuple(self.opt._rate(rate) for rate in self.opt.learning_rate)
                rates = tuple(table[group]._value for group in self.opt._group_of)
            else:
                rates = (current._value,) * len(gradients)
        decays = tuple(d(self.opt.global_step) if callable(d) else d for d in self._lars_decays)
        result = []
        for parameter, gradient, decay, flag, scaled, rate in zip(self.parameters, gradients, decays,
                                                                  self.decay_flags, self.lars_flag, rates):
            if not scaled:
                result.append(gradient)
                continue
            decay = decay._value if isinstance(decay, Tensor) else decay
            decay = decay if (flag or self._lars_is_group) else 0.0
            result.append(Tensor._wrap(_lars_gradient(parameter._value, gradient._value, decay, rate,
                                                      self.epsilon, self.coefficient, self.use_clip)))
        return self.opt(tuple(result))
