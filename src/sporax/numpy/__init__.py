"""``mindspore.numpy``: NumPy's API on Tensors, as rows onto ``jax.numpy`` (see ``sporax.numpy.dispatch``)."""
from sporax.numpy.array_creations import (
    arange, array, asarray, asfarray, bartlett, blackman, diag, diag_indices, diagflat, empty, empty_like, eye,
    full, full_like, geomspace, hamming, hanning, identity, indices, ix_, linspace, logspace, meshgrid, mgrid,
    ogrid, ones, ones_like, rand, randint, randn, trace, tri, tril, tril_indices, tril_indices_from, triu,
    triu_indices, triu_indices_from, vander, zeros, zeros_like,)
from sporax.numpy.array_ops import (
    append, apply_along_axis, apply_over_axes, argwhere, array_split, array_str, atleast_1d, atleast_2d,
    atleast_3d, broadcast_arrays, broadcast_to, choose, column_stack, concatenate, diagonal, dsplit, dstack,
    expand_dims, flip, fliplr, flipud, hsplit, hstack, moveaxis, pad, piecewise, ravel, ravel_multi_index,
    repeat, reshape, roll, rollaxis, rot90, select, size, split, squeeze, stack, swapaxes, take,
    take_along_axis, tile, transpose, unique, unravel_index, vsplit, vstack, where,)
from sporax.numpy.math_ops import (
    abs, absolute, add, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh, bitwise_and, bitwise_not,
    bitwise_or, bitwise_xor, cbrt, ceil, clip, copysign, cos, cosh, deg2rad, divide, divmod, equal, exp, exp2,
    expm1, fabs, fix, float_power, floor, floor_divide, fmod, gcd, greater, greater_equal, heaviside, hypot,
    invert, isfinite, isinf, isnan, isneginf, isposinf, lcm, less, less_equal, log, log10, log1p, log2,
    logaddexp, logaddexp2, logical_and, logical_not, logical_or, logical_xor, matmul, maximum, minimum, mod,
    multiply, negative, not_equal, positive, power, rad2deg, radians, reciprocal, remainder, rint, sign,
    signbit, sin, sinh, sqrt, square, subtract, tan, tanh, true_divide, trunc,)
from sporax.numpy.reductions import (
    amax, amin, argmax, argmin, average, count_nonzero, cumprod, cumsum, max, mean, min, nancumsum, nanmax,
    nanmean, nanmin, nanstd, nansum, nanvar, ptp, sometrue, std, sum, var,)
from sporax.numpy.logic_ops import (
    array_equal, array_equiv, in1d, intersect1d, isclose, isin, isscalar, searchsorted, setdiff1d,)
from sporax.numpy.products import (
    convolve, correlate, cross, dot, inner, kron, multi_dot, norm, outer, tensordot, trapz,)
from sporax.numpy.statistics import (
    bincount, corrcoef, cov, diff, digitize, ediff1d, gradient, histogram, histogram2d, histogram_bin_edges,
    histogramdd, interp, polyadd, polyder, polyint, polymul, polysub, polyval, unwrap,)
from sporax.numpy.dtypes import (
    bool_, float16, float32, float64, float_, int16, int32, int64, int8, int_, promote_types, result_type,
    uint16, uint32, uint64, uint8,)
from sporax.numpy.dtypes import NINF, PINF, inf, nan, pi, uint
from sporax.numpy.math_ops import around, round
from sporax.numpy.array_creations import copy
from sporax.numpy.products import matrix_power
from sporax.numpy import fft  # noqa: E402  (the mindspore.numpy.fft namespace)
