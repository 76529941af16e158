"""``mindspore.mint.special``: special functions, a name table onto ``sporax.ops`` and mint.nn.functional."""
from sporax.ops import erfc, exp2, expm1, log1p, round, sinc
from sporax.mint.spellings import SPELLED as _SPELLED

__all__ = ["erfc", "expm1", "exp2", "round", "sinc", "log1p", "log_softmax"]

# The spelled faces, by name (``log_softmax``, one object with mint.nn.functional's).
globals().update(_SPELLED["mint.special"])
