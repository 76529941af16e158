"""``nn.AdaFactor``: Adafactor (Shazeer and Stern, 2018), MindSpore 2.10's update rule.

Per step ``t`` (kept in the ``step`` state) with ``beta2t = 1 - t ** -decay_rate``:

- the rate is the given one or, with ``relative_step``, ``min(1e-2 or 1e-6 * t (warmup_init),
  1 / sqrt(t))``; with ``scale_parameter`` it is multiplied by ``max(eps[1], RMS(param))``;
- ``u = g ** 2 + eps[0]``; a parameter of rank >= 2 keeps running means of ``u`` over its last
  axis (``exp_avg_sq_row``) and its second-to-last axis (``exp_avg_sq_col``) and estimates
  ``1/sqrt(v)`` from them (factored second moment); a vector keeps ``exp_avg_sq`` in full;
- the update ``g / sqrt(v)`` is divided by ``max(1, RMS(update) / clip_threshold)``, scaled by
  the rate, averaged with ``beta1`` into ``exp_avg`` when ``beta1 > 0``, and subtracted after
  the decoupled weight decay ``param -= weight_decay * rate * param``.

As in MindSpore, the gradients are used as given (no ``loss_scale`` division, weight decay only
as above), and ``compression`` keeps ``exp_avg_sq`` of vectors in float16.
"""
import logging

import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter, ParameterTuple
from sporax.core.tensor import Tensor
from sporax.nn.optim.optimizer import Optimizer
from sporax.state.assign import write

_logger = logging.getLogger("sporax")


def _rms(array):
    return jnp.sqrt(jnp.mean(jnp.square(array)))


def _check_float(name, value, low, high, include_low=True):
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(f"For 'AdaFactor', the type of '{name}' must be float, but got {type(value).__name__}.")
    if value < low or (value == low and not include_low) or value > high:
        raise ValueError(f"For 'AdaFactor', '{name}' must be in {'[' if include_low else '('}{low}, {high}], but got "
                         f"{value}.")
    return value


class AdaFactor(Optimizer):
    """Adafactor: adaptive learning rates with a factored (sublinear memory) second moment.

    Args:
        params (Union[list[Parameter], list[dict]]): the Parameters or parameter groups.
        learning_rate (Union[float, Tensor]): an external rate; must be None with ``relative_step``. Default: ``None``.
        eps (tuple): (eps1, eps2): added to the squared gradient; the floor of the parameter scale.
            Default: ``(1e-30, 1e-3)``.
        clip_threshold (float): the RMS threshold of the final update. Default: ``1.0``.
        decay_rate (float): ``beta2t = 1 - t ** -decay_rate``, in (0, 1). Default: ``0.8``.
        beta1 (float): the first-moment coefficient (0 or None: no first moment). Default: ``0.9``.
        weight_decay (float): decoupled weight decay in [0, 1). Default: ``0.0``.
        scale_parameter (bool): scale the rate by the parameter's RMS. Default: ``True``.
        relative_step (bool): use the time-dependent rate. Default: ``True``.
        warmup_init (bool): warm the relative rate up linearly. Default: ``False``.
        compression (bool): keep the full second moment of vectors in float16. Default: ``False``.
        loss_scale (float): accepted as MindSpore does (its AdaFactor does not divide by it). Default: ``1.0``.

    Inputs:
        - **gradients** (tuple[Tensor]) - one per parameter.

    Outputs:
        Tensor[bool], True.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(3, 2)
        >>> optimizer = ms.nn.AdaFactor(net.trainable_params())
        >>> grads = tuple(ms.ops.ones_like(p) for p in net.trainable_params())
        >>> bool(optimizer(grads))
        True
    """

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0, decay_rate=0.8, beta1=0.9,
                 weight_decay=0.0, scale_parameter=True, relative_step=True, warmup_init=False, compression=False,
                 loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError("For 'AdaFactor', a manual learning_rate cannot be combined with relative_step=True; "
                             f"pass relative_step=False to use learning_rate={learning_rate!r}.")
        if warmup_init and not relative_step:
            raise ValueError("For 'AdaFactor', warmup_init=True requires relative_step=True.")
        if learning_rate is None and not relative_step:
            raise ValueError("For 'AdaFactor', learning_rate must be given when relative_step=False.")
        self.scale_lr = learning_rate is None or isinstance(learning_rate, (float, int))
        if not self.scale_lr and (relative_step or scale_parameter):
            _logger.warning("For 'AdaFactor', a learning-rate schedule turns scale_parameter and the relative step off.")
        super().__init__(0.0 if learning_rate is None else learning_rate, params, weight_decay, loss_scale)
        if not isinstance(eps, (list, tuple)) or len(eps) != 2:
            raise ValueError(f"For 'AdaFactor', 'eps' must be a tuple of 2 floats (eps1, eps2), but got {eps!r}.")
        self.eps = tuple(_check_float(f"eps{index}", value, 0.0, float("inf")) for index, value in enumerate(eps))
        self.clip_threshold = _check_float("clip_threshold", clip_threshold, 0.0, float("inf"))
        self.decay_rate = _check_float("decay_rate", decay_rate, 0.0, 1.0, include_low=False)
        if decay_rate == 1.0:
            raise ValueError("For 'AdaFactor', 'decay_rate' must be in (0, 1), but got 1.0.")
        beta1 = 0.0 if beta1 is None else beta1
        if isinstance(beta1, bool) or not isinstance(beta1, (int, float)) or beta1 < 0:
            raise ValueError(f"For 'AdaFactor', 'beta1' must be a non-negative float, but got {beta1!r}.")
        if isinstance(weight_decay, (int, float)) and not 0 <= weight_decay < 1:
            raise ValueError(f"For 'AdaFactor', 'weight_decay' must be in [0, 1), but got {weight_decay}.")
        for name, value in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                            ("compression", compression)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'AdaFactor', '{name}' must be bool, but got {type(value).__name__}.")
        self.beta1 = float(beta1)
        self.weight_decay_value = float(weight_decay)
        self.scale_parameter = scale_parameter and self.scale_lr
        self.relative_step, self.warmup_init, self.compression = relative_step, warmup_init, compression
        self.use_first_moment = self.beta1 > 0
        self._init_state()
        self.step = Parameter(Tensor(np.zeros(1, np.float32)), name="afactor_step")

    def _init_state(self):
        if self.use_first_moment:
            self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        else:
            self.exp_avg = ParameterTuple([Parameter(Tensor(0.0), name=f"exp_avg_{index}")
                                           for index in range(len(self.parameters))])
        rows, cols, full = [], [], []
        for parameter in self.parameters:
            shape, dtype, name = tuple(parameter.shape), mstype.to_numpy_dtype(parameter.dtype), parameter.name
            factored = len(shape) > 1
            rows.append(Parameter(Tensor(np.zeros(shape[:-1] if factored else (1,), dtype)),
                                  name=f"exp_avg_sq_row_{name}"))
            cols.append(Parameter(Tensor(np.zeros(shape[:-2] + shape[-1:] if factored else (1,), dtype)),
                                  name=f"exp_avg_sq_col_{name}"))
            full_dtype = np.float16 if self.compression and not factored else dtype
            full.append(Parameter(Tensor(np.zeros((1,) if factored else shape, full_dtype)), name=f"exp_avg_sq_{name}"))
        self.exp_avg_sq_row, self.exp_avg_sq_col = ParameterTuple(rows), ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(full)

    @property
    def supports_memory_efficient_fp16(self):
        return True

    @property
    def supports_flat_params(self):
        return False

    def construct(self, gradients):
        rates = self.get_lr()
        write(self.global_step, self.global_step._value + 1, "AdaFactor")
        step = self.step._value + 1.0
        write(self.step, step, "AdaFactor")
        step = step[0]
        if self.scale_lr and self.relative_step:
            floor = 1e-6 * step if self.warmup_init else 1e-2
            rates = jnp.minimum(floor, 1.0 / jnp.sqrt(step))
        if not isinstance(rates, tuple):
            rates = (rates,) * len(self.parameters)
        beta2t = 1.0 - step ** (-self.decay_rate)
        states = zip(self.parameters, gradients, rates, self.exp_avg, self.exp_avg_sq_row, self.exp_avg_sq_col,
                     self.exp_avg_sq)
        for parameter, gradient, rate, exp_avg, row, col, full in states:
            self._update(parameter, gradient._value, jnp.asarray(getattr(rate, "_value", rate), jnp.float32),
                         beta2t, exp_avg, row, col, full)
        return Tensor(True)

    def _update(self, parameter, gradient, rate, beta2t, exp_avg, row, col, full):
        gradient = gradient.astype(jnp.float32) if gradient.dtype == jnp.float16 else gradient
        value = parameter._value
        value = value.astype(jnp.float32) if value.dtype == jnp.float16 else value
        if self.scale_parameter:
            rate = rate * jnp.maximum(self.eps[1], _rms(value))
        squared = jnp.square(gradient) + self.eps[0]
        if gradient.ndim >= 2:
            new_row = row._value.astype(gradient.dtype) * beta2t + jnp.mean(squared, axis=-1) * (1.0 - beta2t)
            new_col = col._value.astype(gradient.dtype) * beta2t + jnp.mean(squared, axis=-2) * (1.0 - beta2t)
            write(row, new_row.astype(row._value.dtype), "AdaFactor")
            write(col, new_col.astype(col._value.dtype), "AdaFactor")
            row_factor = 1.0 / jnp.sqrt(new_row / jnp.mean(new_row, axis=-1, keepdims=True))
            update = row_factor[..., None] * (1.0 / jnp.sqrt(new_col))[..., None, :] * gradient
        else:
            new_full = full._value.astype(gradient.dtype) * beta2t + squared * (1.0 - beta2t)
            write(full, new_full.astype(full._value.dtype), "AdaFactor")
            update = gradient / jnp.sqrt(new_full)
        update = update / jnp.maximum(_rms(update) / self.clip_threshold, 1.0) * rate
        if self.use_first_moment:
            new_avg = exp_avg._value.astype(update.dtype) * self.beta1 + update * (1.0 - self.beta1)
            write(exp_avg, new_avg.astype(exp_avg._value.dtype), "AdaFactor")
            update = new_avg
        if self.weight_decay_value:
            value = value - value * self.weight_decay_value * rate
        write(parameter, (value - update).astype(parameter._value.dtype), "AdaFactor")
