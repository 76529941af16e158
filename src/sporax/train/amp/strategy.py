"""AMP strategy objects (``mindspore._c_expression.amp``): the level enum and the strategy holder.

MindSpore's graph compiler reads a strategy from the ``amp_strategy`` attribute of a jitted function
or Cell and inserts casts by it. sporax's compiler applies no such strategy, so only the level
that changes nothing (``AmpO0``) can be made; other levels raise NotImplementedError pointing to
``mindspore.amp.auto_mixed_precision``, which sporax does apply. Libraries import these names at
module load (mindone's ``diffusers.models.layers_compat`` keeps ``AmpLevel.AmpO3`` as a default).

Example:
    >>> from sporax.train.amp.strategy import AmpLevel, create_amp_strategy
    >>> create_amp_strategy(AmpLevel.AmpO0, None, [], []).get_amp_level()
    <AmpLevel.AmpO0: 0>
"""
import enum


class AmpLevel(enum.IntEnum):
    """MindSpore's AMP levels, with its numbering (``AmpO0`` = 0 ... ``AmpAuto`` = 4)."""

    AmpO0 = 0
    AmpO1 = 1
    AmpO2 = 2
    AmpO3 = 3
    AmpAuto = 4


class AmpStrategy:
    """A level, a low-precision dtype and the white/black lists of one AMP strategy (read-only)."""

    def __init__(self, level, dtype, white_list, black_list):
        self._level, self._dtype = AmpLevel(level), dtype
        self._white_list, self._black_list = list(white_list or []), list(black_list or [])

    def get_amp_level(self):
        return self._level

    def get_amp_dtype(self):
        return self._dtype

    def get_white_list(self):
        return list(self._white_list)

    def get_black_list(self):
        return list(self._black_list)


def create_amp_strategy(level, dtype, white_list, black_list):
    """Make an AMP strategy (``mindspore._c_expression.amp.create_amp_strategy``).

    Args:
        level (AmpLevel): the AMP level; only ``AmpLevel.AmpO0`` (no casts) is supported.
        dtype (mindspore.dtype): the low-precision type of the strategy.
        white_list (list): operators to run in ``dtype``.
        black_list (list): operators to keep in float32.

    Returns:
        AmpStrategy.
    """
    if AmpLevel(level) != AmpLevel.AmpO0:
        raise NotImplementedError(
            f"create_amp_strategy: sporax's compiler does not apply AMP strategies, so level {AmpLevel(level)!r} "
            "would change nothing; cast the network with mindspore.amp.auto_mixed_precision(net, 'O1'/'O2'/'O3', "
            "dtype) instead, or pass AmpLevel.AmpO0.")
    return AmpStrategy(level, dtype, white_list, black_list)


def get_curr_amp_strategy():
    """The AMP strategy in force: always None in sporax (no strategy can be pushed)."""
    return None
