"""Loss scalers (``amp.StaticLossScaler``, ``amp.DynamicLossScaler``) and managers for Model."""
import jax.numpy as jnp
import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.wrap.loss_scale import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell, all_finite
from sporax.state.assign import write


def _map(function, inputs):
    if isinstance(inputs, (tuple, list)):  # (a mutable tuple comes back a plain tuple, as in MindSpore)
        return (list if isinstance(inputs, list) else tuple)(_map(function, item) for item in inputs)
    return function(inputs)


def _grad_scale_map(scale_value, inputs):
    """Each tensor of ``inputs`` (a tensor or a tuple/list of them) times ``scale_value`` in its own dtype.

    MindSpore's LossScaler docstring imports it from ``mindspore.amp`` to write a custom scaler.
    """
    return _map(lambda value: value * scale_value.astype(value.dtype), inputs)


def _grad_unscale_map(scale_value, inputs):
    """Each tensor of ``inputs`` divided by ``scale_value`` in its own dtype (see :func:`_grad_scale_map`)."""
    return _map(lambda value: value / scale_value.astype(value.dtype), inputs)


class LossScaler:
    """Base class of loss scalers: ``scale`` the loss, ``unscale`` the gradients, ``adjust`` the scale."""

    def scale(self, inputs):
        raise NotImplementedError(f"{type(self).__name__} must define scale(inputs).")

    def unscale(self, inputs):
        raise NotImplementedError(f"{type(self).__name__} must define unscale(inputs).")

    def adjust(self, grads_finite):
        raise NotImplementedError(f"{type(self).__name__} must define adjust(grads_finite).")


class StaticLossScaler(LossScaler):
    """A fixed scale.

    Args:
        scale_value (float): the scale, > 0.
    """

    def __init__(self, scale_value):
        if isinstance(scale_value, bool) or not isinstance(scale_value, (int, float)) or scale_value <= 0:
            raise ValueError(f"For 'StaticLossScaler', scale_value must be a number > 0, got {scale_value!r}.")
        self.scale_value = Parameter(Tensor(np.float32(scale_value)), name="scale_value")

    def scale(self, inputs):
        return _grad_scale_map(self.scale_value, inputs)

    def unscale(self, inputs):
        return _grad_unscale_map(self.scale_value, inputs)

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(StaticLossScaler):
    """A scale that halves on non-finite gradients and grows by ``scale_factor`` every ``scale_window`` finite steps.

    Args:
        scale_value (float): the initial scale.
        scale_factor (int): growth/shrink factor.
        scale_window (int): finite steps between growths.
    """

    def __init__(self, scale_value, scale_factor, scale_window):
        super().__init__(scale_value)
        if scale_factor <= 1 or scale_window <= 0:
            raise ValueError("For 'DynamicLossScaler', scale_factor must be > 1 and scale_window > 0.")
        self.scale_factor = float(scale_factor)
        self.scale_window = int(scale_window)
        self.counter = Parameter(Tensor(np.int32(0)), name="counter")

    def adjust(self, grads_finite):
        finite = jnp.asarray(grads_finite._value if isinstance(grads_finite, Tensor) else grads_finite, bool)
        scale, counter = self.scale_value._value, self.counter._value
        grown = scale * self.scale_factor
        kept = jnp.where((counter == self.scale_window - 1) & jnp.isfinite(grown), grown, scale)
        write(self.scale_value, jnp.where(finite, kept, jnp.maximum(1.0, scale / self.scale_factor)),
              "DynamicLossScaler.adjust")
        write(self.counter, ((counter + 1) % self.scale_window) * finite, "DynamicLossScaler.adjust")
        return True


class LossScaleManager:
    """Base class of the loss-scale managers Model and build_train_network take."""

    def get_loss_scale(self):
        raise NotImplementedError(f"{type(self).__name__} must define get_loss_scale().")

    def update_loss_scale(self, overflow):
        raise NotImplementedError(f"{type(self).__name__} must define update_loss_scale(overflow).")

    def get_update_cell(self):
        raise NotImplementedError(f"{type(self).__name__} must define get_update_cell().")


class FixedLossScaleManager(LossScaleManager):
    """A constant scale.

    Args:
        loss_scale (float): the scale, > 1. Default: 128.0.
        drop_overflow_update (bool): skip updates whose gradients overflow. Default: True.
    """

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if loss_scale < 1:
            raise ValueError(f"For 'FixedLossScaleManager', loss_scale must be >= 1, got {loss_scale}.")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self):
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """A fixed scale never changes."""

    def get_update_cell(self):
        return FixedLossScaleUpdateCell(self._loss_scale) if self._drop_overflow_update else None


class DynamicLossScaleManager(LossScaleManager):
    """A scale that shrinks on overflow and grows after ``scale_window`` good steps.

    Args:
        init_loss_scale (float): Default: 2 ** 24.
        scale_factor (int): Default: 2.
        scale_window (int): Default: 2000.
    """

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1 or scale_factor <= 1 or scale_window <= 0:
            raise ValueError("For 'DynamicLossScaleManager', need init_loss_scale >= 1, scale_factor > 1 and "
                             "scale_window > 0.")
        self.loss_scale = init_loss_scale
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        return self.loss_scale

    def get_drop_overflow_update(self):
        return True

    def update_loss_scale(self, overflow):
        """Halve on overflow (not below 1); grow every ``scale_window`` steps without one."""
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        self.cur_iter += 1

    def get_update_cell(self):
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)

