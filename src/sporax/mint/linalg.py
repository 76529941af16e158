"""``mindspore.mint.linalg``: inverse, vector and matrix norms, QR.

``inv`` is ``ops.inverse`` (as ``mint.inverse``); ``vector_norm``, ``matrix_norm``, ``norm`` and ``qr`` are the
op table's spellings of ``ops.vector_norm``, ``ops.matrix_norm``, ``ops.norm`` and ``ops.qr``.
"""
from sporax.ops import inverse
from sporax.mint.spellings import SPELLED as _SPELLED

__all__ = ["inv", "vector_norm", "matrix_norm", "norm", "qr"]

inv = inverse

# The spelled faces, by name (the op table's ``spelling`` rows for "mint.linalg").
globals().update(_SPELLED["mint.linalg"])
