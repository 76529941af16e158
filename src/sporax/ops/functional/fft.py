"""Discrete Fourier transforms of ``mindspore.ops``: ``fft``/``ifft`` (1-D, 2-D, N-D), the real
(``irfft*``) and Hermitian (``hfft*``, ``ihfft*``) forms, ``fftfreq``, ``rfftfreq``, ``fftshift``, ``ifftshift``.

Contract: as ``torch.fft``/``numpy.fft``: ``n``/``s`` pad or trim the transformed axes, ``dim``
names them (default: the last one, the last two, or all / the last ``len(s)``), ``norm`` is
"backward" (scale the inverse by 1/n, the default), "forward" (scale the forward transform) or
"ortho" (both by 1/sqrt(n)). Real inputs are promoted: Float32 (and integers) give Complex64,
Float64 gives Complex128; the inverse real transforms return the matching float type.

Algorithm: ``jax.numpy.fft``; the Hermitian transforms use the identities
``hfftn(x) = irfftn(conj(x))`` and ``ihfftn(x) = conj(rfftn(x))`` with the normalisation swapped.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> print(ops.fft(Tensor(np.array([1.0, 0.0, 0.0, 0.0], np.float32))).asnumpy().real)
    [1. 1. 1. 1.]
"""
import numbers

import jax.numpy as jnp
import ml_dtypes  # ships with jax; NumPy names bfloat16 through it
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops.functional._args import numpy_dtype
from sporax.ops.op_table import ANY, SPECTRAL, Sample, op

_NORMS = ("backward", "forward", "ortho")
_SWAPPED = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _real_only(op_name, array, real_only):
    if real_only and array.dtype.kind == "c":
        raise TypeError(f"For '{op_name}', the input must be a real Tensor, but got {array.dtype}.")
    if array.ndim == 0:
        raise ValueError(f"For '{op_name}', the input must have at least one dimension, but got a scalar.")


def _norm(op_name, norm):
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f"For '{op_name}', 'norm' must be one of {_NORMS} or None, but got {norm!r}.")
    return norm


def _dim(op_name, dim, ndim):
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral):
        raise TypeError(f"For '{op_name}', 'dim' must be an int, but got {type(dim).__name__}.")
    if not -ndim <= dim < ndim:
        raise ValueError(f"For '{op_name}', 'dim' must be in [{-ndim}, {ndim}), but got {dim}.")
    return int(dim) % ndim


def _size(op_name, name, value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"For '{op_name}', '{name}' must be a positive int, but got {value!r}.")
    return int(value)


def _dims_and_sizes(op_name, s, dim, ndim, default_rank=None):
    """The transformed axes and their lengths (None: keep) from ``s`` and ``dim``."""
    if dim is not None:
        dims = (dim,) if isinstance(dim, numbers.Integral) else tuple(dim)
        dims = tuple(_dim(op_name, d, ndim) for d in dims)
        if len(set(dims)) != len(dims):
            raise ValueError(f"For '{op_name}', 'dim' must not repeat an axis, but got {dim}.")
    elif s is not None:
        dims = tuple(range(ndim - len(s), ndim))
    else:
        count = ndim if default_rank is None else default_rank
        dims = tuple(range(ndim - count, ndim))
    if s is None:
        return dims, None
    s = tuple(s)
    if len(s) != len(dims):
        raise ValueError(f"For '{op_name}', 's' and 'dim' must have the same length, but got {s} and {dims}.")
    return dims, tuple(_size(op_name, "s", value) for value in s)


def _sizes_or_none(sizes, array, dims):
    if sizes is None:
        return None
    return tuple(array.shape[d] if size is None else size for size, d in zip(sizes, dims))


# --- samples and NumPy references of the op-table entries -----------------------------------------------
def _signal(shape, dtype, seed, complex_values=False):
    generator = np.random.default_rng(seed)
    values = generator.uniform(-2, 2, shape)
    if complex_values:
        return (values + 1j * generator.uniform(-2, 2, shape)).astype(np.complex64)
    return values.astype(np.dtype(getattr(ml_dtypes, dtype, dtype)))


def one_d_samples(dtype):
    """A (3, 4) signal, a (7,) one padded to 10 points ('ortho'), one along axis 0 cropped ('forward'), and
    for Float32 a complex (3, 4) one."""
    cases = [Sample((_signal((3, 4), dtype, 0),)),
             Sample((_signal((7,), dtype, 1),), {"n": 10, "norm": "ortho"}),
             Sample((_signal((3, 4), dtype, 2),), {"n": 2, "dim": 0, "norm": "forward"})]
    if dtype == "float32":
        cases.append(Sample((_signal((3, 4), dtype, 3, complex_values=True),), {"dim": -1}))
    return cases


def many_d_samples(dtype):
    """A (3, 4) signal, a (2, 3, 4) one over axes (0, 2) resized to (2, 5) ('ortho'), the last two axes
    resized to (3, 3) ('forward'), and for Float32 a complex (2, 3, 4) one."""
    cases = [Sample((_signal((3, 4), dtype, 0),)),
             Sample((_signal((2, 3, 4), dtype, 1),), {"s": (2, 5), "dim": (0, 2), "norm": "ortho"}),
             Sample((_signal((2, 3, 4), dtype, 2),), {"s": (3, 3), "norm": "forward"})]
    if dtype == "float32":
        cases.append(Sample((_signal((2, 3, 4), dtype, 3, complex_values=True),)))
    return cases


def real_samples(maker):
    """``maker``'s samples without the complex one (the transforms of real signals refuse them)."""
    return lambda dtype: [sample for sample in maker(dtype) if sample.arrays[0].dtype.kind != "c"]


def one_d_reference(transform):
    def reference(input, n=None, dim=-1, norm=None):
        return transform(input, n, dim, norm=norm)
    return reference


def many_d_reference(transform, default_rank):
    def reference(input, s=None, dim=(-2, -1) if default_rank == 2 else None, norm=None):
        axes = dim
        if axes is None:
            count = len(s) if s is not None else input.ndim if default_rank is None else default_rank
            axes = tuple(range(input.ndim - count, input.ndim))
        return transform(input, s, axes, norm=norm)
    return reference


def _hermitian_n(input, s, axes, norm):
    """``hfftn``: the real signal whose ``ihfftn`` is ``input`` (NumPy has it in 1-D alone)."""
    return np.fft.irfftn(np.conj(input), s, axes, norm=_SWAPPED[norm or "backward"])


def _inverse_hermitian_n(input, s, axes, norm):
    return np.conj(np.fft.rfftn(input, s, axes, norm=_SWAPPED[norm or "backward"]))


def _declare(kernel, op_name, module, summary, example, maker, reference, real_output):
    """The entry of a transform's ``kernel``, named ``op_name`` in ``module``; gradients are checked for the
    transforms with real results."""
    kernel.__name__ = kernel.__qualname__ = op_name
    kernel.__module__ = module
    kernel.__doc__ = (f"{summary}\n\n    Example:\n        >>> import numpy as np\n"
                      f"        >>> from sporax import Tensor, ops\n        >>> {example}\n")
    return op(inputs="input", dtypes=SPECTRAL, samples=maker, reference=reference, grad_check=real_output)(kernel)


def one_d_transform(op_name, function, reference, real_only=False, real_output=False, module=__name__):
    """The entry of a 1-D transform ``function(array, n, axis, norm)`` (``reference``: NumPy's)."""
    def kernel(input, n=None, dim=-1, norm=None):
        _real_only(op_name, input, real_only)
        return function(input, _size(op_name, "n", n), _dim(op_name, dim, input.ndim), _norm(op_name, norm))
    summary = f"The 1-D ``{op_name}`` of ``input`` along ``dim`` (``n`` points; ``norm`` as in ``torch.fft``)."
    example = f"ops.{op_name}(Tensor(np.ones(4, np.float32))).shape[0] > 0\n        True"
    return _declare(kernel, op_name, module, summary, example, real_samples(one_d_samples) if real_only
                    else one_d_samples, one_d_reference(reference), real_output)


def many_d_transform(op_name, function, reference, default_rank, real_only=False, real_output=False,
                     module=__name__):
    """The entry of a transform ``function(array, s, axes, norm)`` over the last ``default_rank`` axes (all:
    None) or ``dim``."""
    def kernel(input, s=None, dim=(-2, -1) if default_rank == 2 else None, norm=None):
        _real_only(op_name, input, real_only)
        if default_rank == 2 and input.ndim < 2:
            raise ValueError(f"For '{op_name}', the input must have at least 2 dimensions, but got {input.ndim}.")
        dims, sizes = _dims_and_sizes(op_name, s, dim, input.ndim, default_rank)
        return function(input, _sizes_or_none(sizes, input, dims), dims, _norm(op_name, norm))
    summary = f"The ``{op_name}`` of ``input`` over the axes ``dim`` (sizes ``s``; ``norm`` as in ``torch.fft``)."
    example = f"len(ops.{op_name}(Tensor(np.ones((2, 4), np.float32))).shape)\n        2"
    return _declare(kernel, op_name, module, summary, example, real_samples(many_d_samples) if real_only
                    else many_d_samples, many_d_reference(reference, default_rank), real_output)


def _hfft_1d(array, n, axis, norm):
    return jnp.fft.irfft(jnp.conj(array), n, axis, norm=_SWAPPED[norm])


def _ihfft_1d(array, n, axis, norm):
    return jnp.conj(jnp.fft.rfft(array, n, axis, norm=_SWAPPED[norm]))


def _hfft_n(array, s, axes, norm):
    return jnp.fft.irfftn(jnp.conj(array), s, axes, norm=_SWAPPED[norm])


def _ihfft_n(array, s, axes, norm):
    return jnp.conj(jnp.fft.rfftn(array, s, axes, norm=_SWAPPED[norm]))


fft = one_d_transform("fft", lambda a, n, axis, norm: jnp.fft.fft(a, n, axis, norm), np.fft.fft)
ifft = one_d_transform("ifft", lambda a, n, axis, norm: jnp.fft.ifft(a, n, axis, norm), np.fft.ifft)
irfft = one_d_transform("irfft", lambda a, n, axis, norm: jnp.fft.irfft(a, n, axis, norm), np.fft.irfft, real_output=True)
hfft = one_d_transform("hfft", _hfft_1d, np.fft.hfft, real_output=True)
ihfft = one_d_transform("ihfft", _ihfft_1d, np.fft.ihfft, real_only=True)
fft2 = many_d_transform("fft2", jnp.fft.fftn, np.fft.fftn, 2)
ifft2 = many_d_transform("ifft2", jnp.fft.ifftn, np.fft.ifftn, 2)
irfft2 = many_d_transform("irfft2", jnp.fft.irfftn, np.fft.irfftn, 2, real_output=True)
hfft2 = many_d_transform("hfft2", _hfft_n, _hermitian_n, 2, real_output=True)
ihfft2 = many_d_transform("ihfft2", _ihfft_n, _inverse_hermitian_n, 2, real_only=True)
fftn = many_d_transform("fftn", jnp.fft.fftn, np.fft.fftn, None)
ifftn = many_d_transform("ifftn", jnp.fft.ifftn, np.fft.ifftn, None)
irfftn = many_d_transform("irfftn", jnp.fft.irfftn, np.fft.irfftn, None, real_output=True)
hfftn = many_d_transform("hfftn", _hfft_n, _hermitian_n, None, real_output=True)
ihfftn = many_d_transform("ihfftn", _ihfft_n, _inverse_hermitian_n, None, real_only=True)


def _frequency_samples(dtype):
    """4 and 7 points (unit spacing), 5 points of spacing 0.5; Float64 for the ``"float64"`` run."""
    if dtype not in ("float32", "float64"):
        return []
    target = {"dtype": mstype.float64} if dtype == "float64" else {}
    return [Sample((), dict(n=4, **target)), Sample((), dict(n=7, **target)), Sample((), dict(n=5, d=0.5))]


def _frequencies(op_name, n, d, dtype, frequencies):
    n = _size(op_name, "n", n)
    if isinstance(d, bool) or not isinstance(d, numbers.Real):
        raise TypeError(f"For '{op_name}', 'd' must be a float, but got {type(d).__name__}.")
    target = np.dtype(np.float32) if dtype is None else numpy_dtype(op_name, "dtype", dtype)
    return jnp.asarray(np.asarray(frequencies(n, d)).astype(target))


@op(inputs=(), dtypes=ANY, samples=_frequency_samples, grad_check=False,
    reference=lambda n, d=1.0, dtype=None: np.fft.fftfreq(n, d))
def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies ``[0, 1, ..., n/2-1, -n/2, ..., -1] / (d * n)`` of an ``n``-point DFT.

    Example:
        >>> from sporax import ops
        >>> print(ops.fftfreq(4))
        [ 0.    0.25 -0.5  -0.25]
    """
    return _frequencies("fftfreq", n, d, dtype, np.fft.fftfreq)


@op(inputs=(), dtypes=ANY, samples=_frequency_samples, grad_check=False,
    reference=lambda n, d=1.0, dtype=None: np.arange(n // 2 + 1) / (d * n))
def rfftfreq(n, d=1.0, dtype=None):
    """The sample frequencies ``[0, 1, ..., n // 2] / (d * n)`` of an ``rfft`` of length ``n``.

    Example:
        >>> from sporax import ops
        >>> print(ops.rfftfreq(4))
        [0.   0.25 0.5 ]
    """
    return _frequencies("rfftfreq", n, d, dtype, np.fft.rfftfreq)


def _shift(op_name, array, dim, inverse):
    if dim is None:
        axes = tuple(range(array.ndim))
    else:
        axes = tuple(_dim(op_name, d, array.ndim) for d in ((dim,) if isinstance(dim, numbers.Integral) else dim))
    shifts = [-(array.shape[a] // 2) if inverse else array.shape[a] // 2 for a in axes]
    return jnp.roll(array, shifts, axes) if axes else array


def _shift_samples(dtype):
    """A (3, 4) and a (7,) input over every axis, the (3, 4) one over axis 1 and over (0, 1)."""
    matrix, vector = _signal((3, 4), dtype, 0), _signal((7,), dtype, 1)
    return [Sample((matrix,)), Sample((vector,)), Sample((matrix,), {"dim": 1}), Sample((matrix,), {"dim": (0, 1)})]


def _shift_op(name, numpy_shift, inverse, summary, example_length, example_result):
    """Declare ``name``: ``input`` rolled by half of each axis in ``dim`` (back again when ``inverse``); its
    docstring's example shifts ``arange(example_length)`` to ``example_result``."""

    def kernel(input, dim=None):
        return _shift(name, input, dim, inverse)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = (f"{summary}\n\n    Example:\n        >>> import numpy as np\n"
                      f"        >>> from sporax import Tensor, ops\n"
                      f"        >>> print(ops.{name}(Tensor(np.arange({example_length}))))\n        {example_result}\n")
    return op(inputs="input", dtypes=ANY, samples=_shift_samples,
              reference=lambda input, dim=None: numpy_shift(input, dim))(kernel)


fftshift = _shift_op("fftshift", np.fft.fftshift, False,
                     "``input`` rolled so the zero frequency is in the middle of the axes ``dim`` (default: all).",
                     4, "[2 3 0 1]")
ifftshift = _shift_op("ifftshift", np.fft.ifftshift, True, "The inverse of ``fftshift``.", 5, "[2 3 4 0 1]")
