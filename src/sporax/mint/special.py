"""``mindspore.mint.special``: special functions, a name table onto ``sporax.ops`` and mint.nn.functional."""
from sporax.ops import erfc, exp2, expm1, log1p, round, sinc
from sporax.mint.nn.functional import log_softmax

__all__ = ["erfc", "expm1", "exp2", "round", "sinc", "log1p", "log_softmax"]
