"""Learning-rate schedulers of ``mindspore.experimental.optim.lr_scheduler`` (PyTorch's schedules).

Contract: a scheduler wraps one PyTorch-style optimizer; ``step()`` advances ``last_epoch`` and
writes each group's new rate into that group's learning-rate Parameter, which the compiled
optimizer step reads as state (no recompilation). ``get_last_lr()`` returns one Float32 Tensor per
group, as MindSpore does. Schedules are PyTorch's chainable forms: each ``get_lr`` derives the next
rate from the current one, so schedulers compose on one optimizer.
"""
import math

import numpy as np

from sporax.core.tensor import Tensor
from sporax.state import parameter_storage
from sporax.mint.optim.optimizer import Optimizer

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "LinearLR", "ConstantLR", "CosineAnnealingLR",
           "PolynomialLR", "MultiplicativeLR", "LambdaLR", "CosineAnnealingWarmRestarts", "SequentialLR",
           "ReduceLROnPlateau", "CyclicLR"]


def _current(optimizer):
    return [float(group["lr"].asnumpy()) for group in optimizer.param_groups]


def _set(optimizer, values):
    for group, value in zip(optimizer.param_groups, values):
        parameter_storage.update(group["lr"], Tensor(np.array(value, np.float32)))  # MindSpore assigns


def _check_optimizer(optimizer, name):
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"For '{name}', the optimizer must be a mindspore.experimental.optim.Optimizer, "
                        f"but got {type(optimizer).__name__}.")


class LRScheduler:
    """Base class: subclasses implement ``get_lr()`` (the rates for ``self.last_epoch``).

    Args:
        optimizer (Optimizer): a PyTorch-style optimizer.
        last_epoch (int): the index of the last epoch; -1 starts from the optimizer's rates. Default: -1.

    Example:
        >>> import sporax as ms
        >>> from sporax.mint.optim import SGD, lr_scheduler
        >>> optimizer = SGD(ms.nn.Dense(3, 2).trainable_params(), lr=0.1)
        >>> scheduler = lr_scheduler.StepLR(optimizer, step_size=2)
    """

    def __init__(self, optimizer, last_epoch=-1):
        _check_optimizer(optimizer, type(self).__name__)
        if last_epoch != -1 and any("initial_lr" not in group for group in optimizer.param_groups):
            raise KeyError(f"For '{type(self).__name__}', 'initial_lr' must be set in every group when "
                           "last_epoch is not -1.")
        if last_epoch == -1:  # the rates the schedule starts from, kept in the groups as MindSpore does
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", float(group["lr"].asnumpy()))
        self.optimizer = optimizer
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._last_lr = _current(optimizer)
        self.step()

    def get_lr(self):
        """The rates of every group for ``self.last_epoch``."""
        raise NotImplementedError(f"{type(self).__name__} must implement get_lr().")

    def get_last_lr(self):
        """The rates computed by the last ``step()``, one Float32 Tensor per group."""
        return [Tensor(np.array(value, np.float32)) for value in self._last_lr]

    def step(self, epoch=None):
        """Advance one epoch (or go to ``epoch``) and write the new rates into the optimizer."""
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            values = closed() if closed is not None else self.get_lr()
        _set(self.optimizer, values)
        self._last_lr = list(values)
        return True


class StepLR(LRScheduler):
    """Multiply the rates by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        current = _current(self.optimizer)
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return current
        return [lr * self.gamma for lr in current]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** (self.last_epoch // self.step_size) for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the rates by ``gamma`` at each epoch listed in ``milestones``."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones, self.gamma = sorted(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        hits = self.milestones.count(self.last_epoch)
        return [lr * self.gamma ** hits for lr in _current(self.optimizer)]

    def _get_closed_form_lr(self):
        passed = sum(1 for milestone in self.milestones if milestone <= self.last_epoch)
        return [base * self.gamma ** passed for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the rates by ``gamma`` every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        current = _current(self.optimizer)
        return current if self.last_epoch == 0 else [lr * self.gamma for lr in current]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class LinearLR(LRScheduler):
    """Scale the rates linearly from ``start_factor`` to ``end_factor`` over ``total_iters`` epochs."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if not 0 < start_factor <= 1 or not 0 <= end_factor <= 1:
            raise ValueError("For 'LinearLR', start_factor must be in (0, 1] and end_factor in [0, 1].")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        current = _current(self.optimizer)
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in current]
        if self.last_epoch > self.total_iters:
            return current
        change = self.end_factor - self.start_factor
        factor = 1 + change / (self.total_iters * self.start_factor + (self.last_epoch - 1) * change)
        return [lr * factor for lr in current]

    def _get_closed_form_lr(self):
        fraction = min(self.total_iters, self.last_epoch) / self.total_iters
        factor = self.start_factor + (self.end_factor - self.start_factor) * fraction
        return [base * factor for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """Multiply the rates by ``factor`` until epoch ``total_iters``."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if not 0 <= factor <= 1:
            raise ValueError("For 'ConstantLR', factor must be in [0, 1].")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        current = _current(self.optimizer)
        if self.last_epoch == 0:
            return [lr * self.factor for lr in current]
        if self.last_epoch != self.total_iters:
            return current
        return [lr / self.factor for lr in current]

    def _get_closed_form_lr(self):
        factor = self.factor if self.last_epoch < self.total_iters else 1.0
        return [base * factor for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from the base rate down to ``eta_min`` over ``T_max`` epochs."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        current = _current(self.optimizer)
        epoch, period = self.last_epoch, self.T_max
        if epoch == 0:
            return current
        if (epoch - 1 - period) % (2 * period) == 0:
            return [lr + (base - self.eta_min) * (1 - math.cos(math.pi / period)) / 2
                    for lr, base in zip(current, self.base_lrs)]
        ratio = (1 + math.cos(math.pi * epoch / period)) / (1 + math.cos(math.pi * (epoch - 1) / period))
        return [ratio * (lr - self.eta_min) + self.eta_min for lr in current]

    def _get_closed_form_lr(self):
        cosine = (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
        return [self.eta_min + (base - self.eta_min) * cosine for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the rates by a polynomial of degree ``power`` to zero at ``total_iters``."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        current = _current(self.optimizer)
        if self.last_epoch == 0 or self.last_epoch > self.total_iters:
            return current
        factor = ((1.0 - self.last_epoch / self.total_iters) /
                  (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [lr * factor for lr in current]

    def _get_closed_form_lr(self):
        factor = (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
        return [base * factor for base in self.base_lrs]


def _per_group(function_or_list, optimizer, name):
    if isinstance(function_or_list, (list, tuple)):
        if len(function_or_list) != len(optimizer.param_groups):
            raise ValueError(f"For '{name}', expected {len(optimizer.param_groups)} lr_lambda functions, "
                             f"got {len(function_or_list)}.")
        return list(function_or_list)
    return [function_or_list] * len(optimizer.param_groups)


class MultiplicativeLR(LRScheduler):
    """Multiply the rates by ``lr_lambda(epoch)`` every epoch."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _per_group(lr_lambda, optimizer, "MultiplicativeLR")
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        current = _current(self.optimizer)
        if self.last_epoch == 0:
            return current
        return [lr * function(self.last_epoch) for lr, function in zip(current, self.lr_lambdas)]


class LambdaLR(LRScheduler):
    """Set the rates to ``base_lr * lr_lambda(epoch)``."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _per_group(lr_lambda, optimizer, "LambdaLR")
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base * function(self.last_epoch) for base, function in zip(self.base_lrs, self.lr_lambdas)]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every ``T_0 * T_mult**i`` epochs."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1):
        if T_0 <= 0 or not isinstance(T_0, int) or T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError("For 'CosineAnnealingWarmRestarts', T_0 must be a positive int and T_mult an int >= 1.")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        cosine = (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
        return [self.eta_min + (base - self.eta_min) * cosine for base in self.base_lrs]

    def step(self, epoch=None):
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                cycles = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** cycles - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** cycles
        else:
            self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        values = self.get_lr()
        _set(self.optimizer, values)
        self._last_lr = values
        # MindSpore 2.10's CosineAnnealingWarmRestarts.step (and SequentialLR.step) return None; the
        # other schedulers return True.
        return None


class SequentialLR(LRScheduler):
    """Run ``schedulers`` one after another, switching at the epochs in ``milestones``."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        _check_optimizer(optimizer, "SequentialLR")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(f"For 'SequentialLR', expected {len(schedulers) - 1} milestones, got {len(milestones)}.")
        for scheduler in schedulers:
            if scheduler.optimizer is not optimizer:
                raise ValueError("For 'SequentialLR', every scheduler must wrap the given optimizer.")
        self.optimizer, self._schedulers, self._milestones = optimizer, list(schedulers), list(milestones)
        self.last_epoch = last_epoch + 1
        # Undo the steps the sub-schedulers took when they were built, then start the first one.
        _set(optimizer, [group["initial_lr"] for group in optimizer.param_groups])
        for scheduler in self._schedulers:
            scheduler.last_epoch -= 1
        self._schedulers[0].step()
        self._last_lr = self._schedulers[0]._last_lr

    def step(self, epoch=None):
        self.last_epoch += 1
        index = sum(1 for milestone in self._milestones if milestone <= self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()
        self._last_lr = scheduler._last_lr
        return None


class ReduceLROnPlateau:
    """Reduce the rates by ``factor`` when a metric stops improving for ``patience`` epochs.

    Example:
        >>> import sporax as ms
        >>> from sporax.mint.optim import SGD, lr_scheduler
        >>> optimizer = SGD(ms.nn.Dense(3, 2).trainable_params(), lr=0.1)
        >>> scheduler = lr_scheduler.ReduceLROnPlateau(optimizer, patience=2)
        >>> _ = scheduler.step(1.0)
    """

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, eps=1e-8):
        _check_optimizer(optimizer, "ReduceLROnPlateau")
        if factor >= 1.0:
            raise ValueError("For 'ReduceLROnPlateau', factor must be < 1.0.")
        if mode not in ("min", "max") or threshold_mode not in ("rel", "abs"):
            raise ValueError("For 'ReduceLROnPlateau', mode must be 'min' or 'max' and threshold_mode 'rel' or 'abs'.")
        self.optimizer, self.mode, self.factor, self.patience = optimizer, mode, factor, patience
        self.threshold, self.threshold_mode, self.cooldown, self.eps = threshold, threshold_mode, cooldown, eps
        groups = len(optimizer.param_groups)
        self.min_lrs = list(min_lr) if isinstance(min_lr, (list, tuple)) else [min_lr] * groups
        self.best = math.inf if mode == "min" else -math.inf
        self.num_bad_epochs, self.cooldown_counter, self.last_epoch = 0, 0, 0
        self._last_lr = _current(optimizer)

    def _is_improvement(self, current):
        if self.threshold_mode == "rel":
            scale = 1 - self.threshold if self.mode == "min" else 1 + self.threshold
            reference = self.best * scale
        else:
            reference = self.best - self.threshold if self.mode == "min" else self.best + self.threshold
        return current < reference if self.mode == "min" else current > reference

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def step(self, metrics):
        """Record ``metrics`` for this epoch and reduce the rates after ``patience`` bad epochs."""
        current = float(metrics.asnumpy() if isinstance(metrics, Tensor) else metrics)
        self.last_epoch += 1
        if self._is_improvement(current):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            values = []
            for lr, floor in zip(_current(self.optimizer), self.min_lrs):
                reduced = max(lr * self.factor, floor)
                values.append(reduced if lr - reduced > self.eps else lr)
            _set(self.optimizer, values)
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = _current(self.optimizer)
        return True

    def get_last_lr(self):
        """The current rates, one Float32 Tensor per group."""
        return [Tensor(np.array(value, np.float32)) for value in self._last_lr]


class CyclicLR(LRScheduler):
    """Cycle the rates between ``base_lr`` and ``max_lr`` (triangular, triangular2 or exp_range)."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode="triangular",
                 gamma=1.0, scale_fn=None, scale_mode="cycle", last_epoch=-1):
        _check_optimizer(optimizer, "CyclicLR")
        groups = len(optimizer.param_groups)
        base = list(base_lr) if isinstance(base_lr, (list, tuple)) else [base_lr] * groups
        self.max_lrs = list(max_lr) if isinstance(max_lr, (list, tuple)) else [max_lr] * groups
        if last_epoch == -1:
            _set(optimizer, base)
            for group, value in zip(optimizer.param_groups, base):
                group["initial_lr"] = value
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(f"For 'CyclicLR', mode must be triangular, triangular2 or exp_range, got {mode!r}.")
        down = step_size_down if step_size_down is not None else step_size_up
        self.total_size = float(step_size_up + down)
        self.step_ratio = step_size_up / self.total_size
        self.mode, self.gamma = mode, gamma
        if scale_fn is None:
            self.scale_fn = {"triangular": lambda x: 1.0, "triangular2": lambda x: 1 / (2.0 ** (x - 1)),
                             "exp_range": lambda x: gamma ** x}[mode]
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        else:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        position = 1.0 + self.last_epoch / self.total_size - cycle
        scale = position / self.step_ratio if position <= self.step_ratio else (position - 1) / (self.step_ratio - 1)
        argument = cycle if self.scale_mode == "cycle" else self.last_epoch
        return [base + (top - base) * scale * self.scale_fn(argument)
                for base, top in zip(self.base_lrs, self.max_lrs)]
