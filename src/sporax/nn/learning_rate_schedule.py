"""Learning-rate schedules: Cells that compute the rate from ``global_step`` inside the step.

Example:
    >>> import sporax as ms
    >>> schedule = ms.nn.CosineDecayLR(0.01, 0.1, 4)
    >>> round(float(schedule(ms.Tensor(3, ms.int32))), 5)
    0.02318
"""
import math

import jax.numpy as jnp

from sporax.core.tensor import Tensor, unwrap
from sporax.nn.cell import Cell
from sporax.ops.functional.reduce import divide_exactly


def _positive(value, name, cell):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError(f"For '{cell}', {name} must be a number > 0, got {value!r}.")
    return value


class LearningRateSchedule(Cell):
    """Base class: ``construct(global_step)`` returns the learning rate as a float32 Tensor."""

    def _step(self, global_step):
        return jnp.asarray(unwrap(global_step), jnp.float32).reshape(())

    def construct(self, global_step):
        raise NotImplementedError(f"{type(self).__name__} must define construct(global_step).")


class _DecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        name = type(self).__name__
        self.learning_rate = _positive(learning_rate, "learning_rate", name)
        self.decay_rate = _positive(decay_rate, "decay_rate", name)
        self.decay_steps = _positive(decay_steps, "decay_steps", name)
        self.is_stair = bool(is_stair)

    def _progress(self, global_step):
        progress = self._step(global_step) / self.decay_steps
        return jnp.floor(progress) if self.is_stair else progress


class ExponentialDecayLR(_DecayLR):
    """``learning_rate * decay_rate ** (step / decay_steps)`` (floored with ``is_stair``)."""

    def construct(self, global_step):
        return Tensor._wrap(self.learning_rate * jnp.power(jnp.float32(self.decay_rate), self._progress(global_step)))


class NaturalExpDecayLR(_DecayLR):
    """``learning_rate * exp(-decay_rate * p * decay_steps)``, p = step / decay_steps (floored with ``is_stair``)."""

    def construct(self, global_step):
        exponent = -self.decay_rate * self._progress(global_step) * self.decay_steps
        return Tensor._wrap((self.learning_rate * jnp.exp(exponent)).astype(jnp.float32))


class InverseDecayLR(_DecayLR):
    """``learning_rate / (1 + decay_rate * step / decay_steps)`` (floored with ``is_stair``)."""

    def construct(self, global_step):
        return Tensor._wrap((self.learning_rate / (1 + self.decay_rate * self._progress(global_step))).astype(jnp.float32))


class CosineDecayLR(LearningRateSchedule):
    """Cosine decay from ``max_lr`` to ``min_lr`` over ``decay_steps``, then ``min_lr``."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        if min_lr < 0 or max_lr <= min_lr:
            raise ValueError(f"For 'CosineDecayLR', need 0 <= min_lr < max_lr, got {min_lr}, {max_lr}.")
        self.min_lr, self.max_lr = min_lr, max_lr
        self.decay_steps = _positive(decay_steps, "decay_steps", "CosineDecayLR")

    def construct(self, global_step):
        # MindSpore 2.10's Float32 steps: min_lr + delta * (1 + sin(pi * (p / decay_steps + 0.5))), the
        # quotient rounded once (its recorded rates differ from the cosine form's in the last digits).
        progress = divide_exactly(jnp.minimum(self._step(global_step), self.decay_steps), self.decay_steps)
        delta = jnp.float32(0.5 * (self.max_lr - self.min_lr))
        angle = jnp.float32(math.pi) * (progress + jnp.float32(0.5))
        return Tensor._wrap(jnp.float32(self.min_lr) + delta * (jnp.float32(1.0) + jnp.sin(angle)))


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end) * (1 - step / decay_steps) ** power + end``.

    With ``update_decay_steps`` the decay length grows to the next multiple of ``decay_steps``.
    """

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False):
        super().__init__()
        self.learning_rate = _positive(learning_rate, "learning_rate", "PolynomialDecayLR")
        self.end_learning_rate = end_learning_rate
        self.decay_steps = _positive(decay_steps, "decay_steps", "PolynomialDecayLR")
        self.power = _positive(power, "power", "PolynomialDecayLR")
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step = self._step(global_step)
        if self.update_decay_steps:
            decay_steps = self.decay_steps * jnp.maximum(jnp.ceil(divide_exactly(step, self.decay_steps)), 1.0)
        else:
            decay_steps = self.decay_steps
            step = jnp.minimum(step, decay_steps)
        fraction = divide_exactly(step, decay_steps)  # rounded once, as MindSpore 2.10 divides
        value = (self.learning_rate - self.end_learning_rate) * jnp.power(1 - fraction, self.power)
        return Tensor._wrap((value + self.end_learning_rate).astype(jnp.float32))


class WarmUpLR(LearningRateSchedule):
    """``learning_rate * min(step, warmup_steps) / warmup_steps``."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        self.learning_rate = _positive(learning_rate, "learning_rate", "WarmUpLR")
        self.warmup_steps = _positive(warmup_steps, "warmup_steps", "WarmUpLR")

    def construct(self, global_step):
        # MindSpore 2.10 scales by the Float32 fraction min(step, warmup_steps) / warmup_steps (rounded once), so the
        # rate after the warmup is learning_rate itself (lr * step / warmup gave 0.10000001 for 0.1).
        fraction = divide_exactly(jnp.minimum(self._step(global_step), self.warmup_steps), self.warmup_steps)
        return Tensor._wrap(jnp.float32(self.learning_rate) * fraction)
