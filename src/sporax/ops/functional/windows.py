"""Window functions of ``mindspore.ops``: ``bartlett_window``, ``blackman_window``, ``hamming_window``,
``hann_window``, ``kaiser_window``.

Contract: ``window_length`` is a Python int (or a one-element integer Tensor, as the MindSpore
Primitives take it) >= 0; a periodic window of length N is the symmetric window of length N + 1
without its last point. The result is a 1-D float Tensor: ``dtype`` if given, else Float32 (Float64 for
``hann_window`` and ``kaiser_window``, as MindSpore 2.10 gives).

Example:
    >>> from sporax import ops
    >>> print(ops.hann_window(4))
    [0.  0.5 1.  0.5]
"""
import numbers

import jax
import jax.numpy as jnp
import jax.scipy.special as special
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops.functional._args import numpy_dtype
from sporax.ops.op_table import ANY, Sample, op


def _length(op_name, window_length):
    """The window length from an int, or from a one-element integer Tensor (the faces hand its value over as
    an int or a one-element tuple)."""
    if isinstance(window_length, Tensor):
        values = window_length.asnumpy().reshape(-1)
        if values.size != 1 or values.dtype.kind not in "iu":
            raise ValueError(f"For '{op_name}', 'window_length' must be an integer scalar Tensor, but got "
                             f"a {window_length.dtype} Tensor of shape {window_length.shape}.")
        window_length = int(values[0])
    if isinstance(window_length, tuple) and len(window_length) == 1:
        (window_length,) = window_length
    if isinstance(window_length, bool) or not isinstance(window_length, numbers.Integral):
        raise TypeError(f"For '{op_name}', 'window_length' must be an int, but got "
                        f"{type(window_length).__name__}.")
    if window_length < 0:
        raise ValueError(f"For '{op_name}', 'window_length' must be >= 0, but got {window_length}.")
    return int(window_length)


def _check_periodic(op_name, periodic):
    if not isinstance(periodic, (bool, np.bool_)):
        raise TypeError(f"For '{op_name}', 'periodic' must be a bool, but got {type(periodic).__name__}.")


def _window(op_name, window_length, periodic, dtype, formula, default=np.float32):
    """``formula(n, N)`` on ``n = 0 .. length-1`` with ``N`` the symmetric length minus one (NumPy, on the
    static settings: the window is a constant of the compiled kernel)."""
    length = _length(op_name, window_length)
    _check_periodic(op_name, periodic)
    target = np.dtype(default) if dtype is None else numpy_dtype(op_name, "dtype", dtype)
    if target.kind != "f":
        raise TypeError(f"For '{op_name}', 'dtype' must be a float type, but got {dtype!r}.")
    if length <= 1:
        return jnp.ones((length,), target)
    span = length if periodic else length - 1
    n = np.arange(length, dtype=np.float64)
    return jnp.asarray(np.asarray(formula(n, span)).astype(target))  # rounded on the host, as NumPy rounds


def _cosine_sum(coefficients):
    def formula(n, span):
        terms = [c * np.cos(2 * np.pi * k * n / span) for k, c in enumerate(coefficients)]
        # the even terms summed first, then the odd ones subtracted: Blackman's ends come out exactly 0
        # (0.42 + 0.08 - 0.5), as MindSpore prints them, not NumPy's -1.4e-17
        return sum(terms[0::2]) - sum(terms[1::2])
    return formula


# --- samples and NumPy references of the op-table entries -----------------------------------------------
_DTYPES = {"float32": None, "float16": mstype.float16, "float64": mstype.float64}  # no BFloat16 (as MindSpore)


def _samples(**settings):
    """Windows of 7 points (periodic), 6 (symmetric), 1 and 0 in the sample dtype, with ``settings``.

    Example:
        >>> [sample.kwargs["window_length"] for sample in _samples()("float32")]
        [7, 6, 1, 0]
    """
    def make(dtype):
        if dtype not in _DTYPES:
            return []
        target = {"dtype": _DTYPES[dtype]}
        return [Sample((), dict(settings, window_length=7, **target)),
                Sample((), dict(settings, window_length=6, periodic=False, **target)),
                Sample((), dict(settings, window_length=1, **target)), Sample((), dict(settings, window_length=0))]
    return make


def _reference(numpy_window):
    """The entry's reference from NumPy's symmetric window ``numpy_window(M)`` (periodic: one point more,
    the last dropped)."""
    def reference(window_length, periodic=True, *, dtype=None, **settings):
        if window_length <= 1:
            return np.ones(window_length)
        full = numpy_window(window_length + 1 if periodic else window_length, **settings)
        return full[:window_length]
    return reference


def _hamming(length, alpha=0.54, beta=0.46):
    return alpha - beta * np.cos(2 * np.pi * np.arange(length) / (length - 1))


def _kaiser(length, beta=12.0):
    return np.kaiser(length, beta)


@op(inputs=(), dtypes=ANY, samples=_samples(), reference=_reference(np.bartlett), grad_check=False)
def bartlett_window(window_length, periodic=True, *, dtype=None):
    """The Bartlett (triangular) window ``1 - |2n/N - 1|``.

    Args:
        window_length (int): the number of points.
        periodic (bool): a periodic window (for spectral analysis) if True, else symmetric. Default: True.
        dtype (mindspore.dtype): a float type. Default: Float32.

    Example:
        >>> from sporax import ops
        >>> print(ops.bartlett_window(5, periodic=False))
        [0.  0.5 1.  0.5 0. ]
    """
    return _window("bartlett_window", window_length, periodic, dtype, lambda n, span: 1 - np.abs(2 * n / span - 1))


@op(inputs=(), dtypes=ANY, samples=_samples(), reference=_reference(np.blackman), grad_check=False)
def blackman_window(window_length, periodic=True, *, dtype=None):
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)``.

    Example:
        >>> from sporax import ops
        >>> ops.blackman_window(3).shape
        (3,)
    """
    return _window("blackman_window", window_length, periodic, dtype, _cosine_sum((0.42, 0.5, 0.08)))


@op(inputs=(), dtypes=ANY, samples=_samples(alpha=0.5, beta=0.4), reference=_reference(_hamming), grad_check=False)
def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """The generalized Hamming window ``alpha - beta cos(2 pi n / N)``.

    Example:
        >>> from sporax import ops
        >>> print(ops.hamming_window(2))
        [0.08 1.  ]
    """
    for name, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"For 'hamming_window', '{name}' must be a float, but got {type(value).__name__}.")
    # MindSpore keeps alpha and beta as Float32 attributes and computes in Float64 from them: the ends are
    # 0.08000001 and a Float64 window's peak 1.00000003 (recorded, MindSpore 2.10 CPU)
    coefficients = tuple(float(np.float32(value)) for value in (alpha, beta))
    return _window("hamming_window", window_length, periodic, dtype, _cosine_sum(coefficients))


@op(inputs=(), dtypes=ANY, samples=_samples(), reference=_reference(np.hanning), grad_check=False)
def hann_window(window_length, periodic=True, *, dtype=None):
    """The Hann window ``0.5 - 0.5 cos(2 pi n / N)`` (Float64 unless ``dtype`` is given, as MindSpore 2.10).

    Example:
        >>> from sporax import ops
        >>> print(ops.hann_window(4))
        [0.  0.5 1.  0.5]
    """
    return _window("hann_window", window_length, periodic, dtype, _cosine_sum((0.5, 0.5)), np.float64)


@op(inputs=(), dtypes=ANY, samples=_samples(beta=5.0), reference=_reference(_kaiser), grad_check=False)
def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """The Kaiser window ``I0(beta sqrt(1 - (2n/N - 1)^2)) / I0(beta)`` (Float64 unless ``dtype`` is given).

    Example:
        >>> from sporax import ops
        >>> ops.kaiser_window(4).shape
        (4,)
    """
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
        raise TypeError(f"For 'kaiser_window', 'beta' must be a float, but got {type(beta).__name__}.")

    def formula(n, span):
        ratio = np.sqrt(np.clip(1 - (2 * n / span - 1) ** 2, 0, None))
        # I0 of the ratios in Float32 (as MindSpore's kernel), over I0(beta) in Float64; concrete even inside
        # a compiled kernel (the settings are static)
        with jax.ensure_compile_time_eval():
            return np.asarray(special.i0(jnp.asarray(beta * ratio, jnp.float32))) / float(special.i0(float(beta)))
    return _window("kaiser_window", window_length, periodic, dtype, formula, np.float64)
