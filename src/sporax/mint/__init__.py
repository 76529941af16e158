"""``mindspore.mint``: the PyTorch-style API (mindnlp, mindone) as name tables onto sporax's ops and Cells.

Names whose MindSpore signature equals the op's come straight from ``sporax.ops``; names that spell an op
PyTorch's way (``dim``/``keepdim``) are generated from the op table's ``spelling`` rows (``mint.spellings``);
op-table entries that MindSpore has only in mint (``vdot``, ``kthvalue``, ``batch_norm_stats``...) come from
their ``ops.functional`` modules; the rest are thin adapters that call entries (``elementwise``, ``reduction``,
``products``, ``random``).
"""
# Same signature as the op: the op itself.
from sporax.ops import (
    abs, acos, acosh, addcdiv, addmm, arange, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh,
    argmax, asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_or, bitwise_xor, broadcast_to, ceil, clamp,
    cos, cosh, cross, cumprod, div, divide, dstack, einsum, eq, erf, erfc, erfinv,
    exp, exp2, expm1, eye, flip, float_power, floor, floor_divide, fmod, full, full_like, greater,
    greater_equal, gt, hstack, isclose, isfinite, isinf, isneginf, le, lerp, less, less_equal, log, log10,
    log1p, log2, logaddexp2, logical_and, logical_not, logical_or, logical_xor, logsumexp, lt,
    masked_select, matmul, maximum, minimum, mm, mul, nan_to_num, ne, neg, negative, nonzero, not_equal,
    ones_like, outer, pow, ravel, reciprocal, remainder, reshape, roll, round, rsqrt, sigmoid, sign, sin, sinc,
    sinh, square, sum, swapaxes, t, take, tan, tanh, tile, trace, tril, triu, unbind, unique_consecutive,
    unsqueeze, where, xlogy, zeros, zeros_like,
)
from sporax.ops import addbmm, addmv, gcd, imag, inverse, polar, real
from sporax.mint.elementwise import allclose, item
from sporax.mint.reduction import bincount, max, median, min, norm
from sporax.mint.products import conv_tbc
from sporax.ops.functional.solve import triangular_solve
from sporax.ops.functional.linalg_products import dot_ext as dot, vdot
from sporax.ops.functional.order_statistics import kthvalue
from sporax.mint.random import multinomial, randint, randint_like
from sporax.ops.functional.normalization import (
    batch_norm_elemt, batch_norm_gather_stats_with_counts, batch_norm_stats,
)
from sporax.ops import clip, equal, ge, trunc
from sporax.mint import linalg, nn, optim, special
from sporax.mint.spellings import SPELLED as _SPELLED

# The spelled faces, by name (their list is the op table's ``spelling`` rows for "mint").
globals().update(_SPELLED["mint"])
