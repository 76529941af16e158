"""Per-step learning-rate lists (``nn.piecewise_constant_lr`` ...), for ``Optimizer(learning_rate=list)``.

Example:
    >>> piecewise_constant_lr([2, 5], [0.1, 0.05])
    [0.1, 0.1, 0.05, 0.05, 0.05]
"""
import math


def _check(total_step, step_per_epoch, decay_epoch, name):
    for argument, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch),
                            ("decay_epoch", decay_epoch)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"For '{name}', {argument} must be an int > 0, got {value!r}.")


def piecewise_constant_lr(milestone, learning_rates):
    """``learning_rates[j]`` for steps before ``milestone[j]``."""
    if len(milestone) != len(learning_rates):
        raise ValueError("For 'piecewise_constant_lr', milestone and learning_rates must have the same length.")
    if any(b <= a for a, b in zip(milestone, milestone[1:])):
        raise ValueError("For 'piecewise_constant_lr', milestone must be strictly increasing.")
    result, start = [], 0
    for end, rate in zip(milestone, learning_rates):
        result += [rate] * (end - start)
        start = end
    return result


def _by_epoch(total_step, step_per_epoch, function):
    return [function(step // step_per_epoch) for step in range(total_step)]


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``learning_rate * decay_rate ** (epoch / decay_epoch)`` per step."""
    _check(total_step, step_per_epoch, decay_epoch, "exponential_decay_lr")
    return _by_epoch(total_step, step_per_epoch, lambda epoch: learning_rate * decay_rate ** (
        math.floor(epoch / decay_epoch) if is_stair else epoch / decay_epoch))


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``learning_rate * exp(-decay_rate * epoch)`` (epoch floored to multiples of decay_epoch with is_stair)."""
    _check(total_step, step_per_epoch, decay_epoch, "natural_exp_decay_lr")
    # math.e ** x, not math.exp(x): the two differ in the last float64 bit, and MindSpore uses the power.
    return _by_epoch(total_step, step_per_epoch, lambda epoch: learning_rate * math.e ** (-decay_rate * (
        math.floor(epoch / decay_epoch) * decay_epoch if is_stair else epoch)))


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``learning_rate / (1 + decay_rate * epoch / decay_epoch)`` per step."""
    _check(total_step, step_per_epoch, decay_epoch, "inverse_decay_lr")
    # (decay_rate * epoch) / decay_epoch, in that order, to round as MindSpore does.
    return _by_epoch(total_step, step_per_epoch, lambda epoch: learning_rate / (1 + (
        decay_rate * math.floor(epoch / decay_epoch) if is_stair else decay_rate * epoch / decay_epoch)))


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """Cosine decay from ``max_lr`` to ``min_lr`` over ``decay_epoch`` epochs."""
    _check(total_step, step_per_epoch, decay_epoch, "cosine_decay_lr")
    return _by_epoch(total_step, step_per_epoch, lambda epoch: min_lr + (max_lr - min_lr) * 0.5 * (
        1 + math.cos(math.pi * min(epoch, decay_epoch) / decay_epoch)))


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch, power,
                        update_decay_epoch=False):
    """``(learning_rate - end) * (1 - epoch / decay_epoch) ** power + end`` per step."""
    _check(total_step, step_per_epoch, decay_epoch, "polynomial_decay_lr")

    def rate(epoch):
        if update_decay_epoch:
            length = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            length, epoch = decay_epoch, min(epoch, decay_epoch)
        return (learning_rate - end_learning_rate) * (1 - epoch / length) ** power + end_learning_rate

    return _by_epoch(total_step, step_per_epoch, rate)


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """``learning_rate * min(epoch, warmup_epoch) / warmup_epoch`` per step."""
    _check(total_step, step_per_epoch, warmup_epoch, "warmup_lr")
    return _by_epoch(total_step, step_per_epoch,
                     lambda epoch: learning_rate * min(epoch, warmup_epoch) / warmup_epoch)
