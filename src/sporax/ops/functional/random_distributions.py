"""Samplers of the named distributions beyond uniform and normal: Laplace (standard_laplace, laplace), gamma
(random_gamma, and gamma with ``beta`` the rate: the mean is ``alpha / beta``), Poisson, Cauchy and
Gumbel-softmax.

Each draws its key from the global random state as the ops of ``sporax.ops.functional.random`` do (an
op-level ``seed`` folded in), so ``set_seed`` makes a run repeat; seeded, ``standard_laplace``, ``laplace`` and
``random_gamma`` and ``random_poisson`` draw MindSpore 2.10's numbers (its StandardLaplace, RandomGamma and
RandomPoisson kernel streams, ``sporax.core.seeded_streams``, ``philox_samplers``, ``poisson_stream``).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.random_poisson(Tensor(np.array([3], np.int32)), Tensor([1.0, 2.0])).shape
    (3, 2)
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops._dispatch import describe, wrap
from sporax.ops.functional import random_samples as samples
from sporax.ops.functional._args import numpy_dtype, output_shape
from sporax.ops.functional.random import _FLOAT32, _bound, _host_draw, _key, _seeded
from sporax.ops.op_table import ANY, FLOAT, op


def _laplaces(key, shape):
    """Standard Laplace samples of ``shape``: MindSpore's StandardLaplace stream for a seed pair or stream (seeded),
    else ``jax.random.laplace``."""
    if isinstance(key, jax.Array):
        return jax.random.laplace(key, shape, _FLOAT32)
    return _host_draw(key, shape, ("laplace",), _FLOAT32)


@op(inputs=(), dtypes=ANY, random=_seeded("standard_laplace"), samples=samples.shaped(),
    reference=samples.standard_laplace_reference, grad_check=False)
def standard_laplace(shape, seed=None, *, key):
    """Float32 samples of the standard Laplace distribution (location 0, scale 1); seeded, MindSpore's.

    Example:
        >>> from sporax import ops
        >>> ops.standard_laplace((2,)).shape
        (2,)
    """
    return _laplaces(key, output_shape("standard_laplace", "shape", shape))


@op(inputs=("mean", "lambda_param"), dtypes=ANY, random=_seeded("laplace"), samples=samples.laplace,
    reference=samples.laplace_reference, grad_check=False)
def laplace(shape, mean, lambda_param, seed=None, *, key):
    """Samples of Laplace(mean, lambda_param) with shape ``broadcast(shape, mean, lambda_param)``; seeded,
    MindSpore's: its StandardLaplace(shape) times ``lambda_param`` plus ``mean``, broadcast by the arithmetic.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.laplace((2,), Tensor(0.0), Tensor(1.0)).shape
        (2,)
    """
    mean = _bound("laplace", "mean", mean)
    scale = _bound("laplace", "lambda_param", lambda_param)
    target = np.dtype(jnp.promote_types(mean.dtype, scale.dtype))
    shape = output_shape("laplace", "shape", shape)
    if isinstance(key, jax.Array):
        shape = jnp.broadcast_shapes(shape, mean.shape, scale.shape)
    return _laplaces(key, shape).astype(target) * scale.astype(target) + mean.astype(target)


def _refuse_sequence_shape(op_name, shape):
    # MindSpore's RandomGamma/RandomPoisson kernels take the shape as a Tensor input only.
    if isinstance(shape, (tuple, list)):
        raise TypeError(f"For '{op_name}', 'shape' must be a 1-D Tensor of Int32 or Int64, but got "
                        f"{type(shape).__name__} {shape!r}: pass Tensor(np.array({list(shape)!r}), mindspore.int32).")


@op(inputs=("shape", "alpha"), dtypes=ANY, random=_seeded("random_gamma"), samples=samples.random_gamma,
    reference=samples.random_gamma_reference, grad_check=False)
def random_gamma(shape, alpha, seed=None, *, key):
    """Gamma(alpha) samples of shape ``shape + alpha.shape``; seeded, MindSpore's (its RandomGamma kernel:
    ``core.philox_samplers.GuardedPhilox``, in double, cast to ``alpha``'s dtype).

    As in MindSpore 2.10, ``shape`` is a 1-D Int32/Int64 Tensor (a tuple or list is a TypeError).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.random_gamma(Tensor(np.array([3], np.int32)), Tensor([1.0, 2.0])).shape
        (3, 2)
    """
    _refuse_sequence_shape("random_gamma", shape)
    concentration = _bound("random_gamma", "alpha", alpha)
    out_shape = output_shape("random_gamma", "shape", shape) + concentration.shape
    dtype = concentration.dtype if concentration.dtype.kind == "f" else _FLOAT32
    if not isinstance(key, jax.Array):
        # the kernel's double cast to the output type (a Float16 one through float32)
        drawn = _host_draw(key, out_shape, ("gamma",), np.float64 if dtype == np.float64 else _FLOAT32,
                           (concentration.astype(dtype),))
        return drawn.astype(dtype)
    return jax.random.gamma(key, concentration.astype(dtype), out_shape, dtype)


@op(inputs=("shape", "rate"), dtypes=ANY, random=_seeded("random_poisson"), samples=samples.random_poisson,
    reference=samples.random_poisson_reference, grad_check=False)
def random_poisson(shape, rate, seed=None, dtype=mstype.float32, *, key):
    """Poisson(rate) samples of shape ``shape + rate.shape`` (Float32 unless ``dtype`` is given); seeded,
    MindSpore's (its RandomPoisson kernel: ``core.poisson_stream``, in double, cast to ``dtype``).

    As in MindSpore 2.10, ``shape`` is a 1-D Int32/Int64 Tensor (a tuple or list is a TypeError), ``rate`` a
    Float or Int32/Int64 Tensor and ``dtype`` one of Int32, Int64, Float16, Float32, Float64.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.random_poisson(Tensor(np.array([3], np.int32)), Tensor([1.0, 2.0])).shape
        (3, 2)
    """
    _refuse_sequence_shape("random_poisson", shape)
    rates = _bound("random_poisson", "rate", rate)
    if rates.dtype.kind not in "fi" or rates.dtype.itemsize < (2 if rates.dtype.kind == "f" else 4):
        raise TypeError(f"For 'random_poisson', 'rate' must be a Tensor of Float16, Float32, Float64, Int32 or Int64, "
                        f"but got {describe(rate)}.")
    out_shape = output_shape("random_poisson", "shape", shape) + rates.shape
    target = _FLOAT32 if dtype is None else numpy_dtype("random_poisson", "dtype", dtype)
    if target.kind not in "fi" or target.itemsize < (2 if target.kind == "f" else 4):
        raise TypeError(f"For 'random_poisson', 'dtype' must be one of int64, int32, float16, float32, float64, "
                        f"but got {dtype}.")
    if not isinstance(key, jax.Array):
        return _host_draw(key, out_shape, ("poisson",), np.float64, (rates,)).astype(target)
    return jax.random.poisson(key, rates, out_shape).astype(target)


@op(inputs="logits", dtypes=FLOAT, random=_key, samples=samples.gumbel_softmax,
    reference=samples.gumbel_softmax_reference, grad_check=False)
def gumbel_softmax(logits, tau=1.0, hard=False, dim=-1, *, key):
    """Softmax of ``(logits + Gumbel noise) / tau`` (one-hot, straight-through, when ``hard``).

    Example:
        >>> from sporax import Tensor, ops
        >>> float(ops.gumbel_softmax(Tensor([[1.0, 2.0]]), hard=True).asnumpy().sum())
        1.0
    """
    if tau <= 0:
        raise ValueError(f"For 'gumbel_softmax', 'tau' must be positive, but got {tau}.")
    noise = jax.random.gumbel(key, logits.shape, logits.dtype)
    soft = jax.nn.softmax((logits + noise) / tau, dim)
    if not hard:
        return soft
    hot = jax.nn.one_hot(jnp.argmax(soft, dim), logits.shape[dim], dtype=logits.dtype, axis=dim)
    return hot - jax.lax.stop_gradient(soft) + soft


@op(inputs=("alpha", "beta"), dtypes=ANY, random=_key, samples=samples.gamma, reference=samples.gamma_reference,
    grad_check=False)
def gamma(shape, alpha, beta, seed=None, *, key):
    """Gamma(``alpha``, rate ``beta``) samples; the shape broadcasts ``shape``, ``alpha`` and ``beta``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> bool((ops.gamma((4,), Tensor(np.array([2.0], np.float32)), Tensor(np.array([1.0], np.float32))).asnumpy() > 0).all())
        True
    """
    if not isinstance(shape, tuple):
        raise TypeError(f"For 'gamma', 'shape' must be a tuple, but got {type(shape).__name__}.")
    for name, array in (("alpha", alpha), ("beta", beta)):
        if not isinstance(array, jax.Array):
            raise TypeError(f"For 'gamma', the argument '{name}' must be a Tensor, but got {describe(array)}.")
        if array.dtype != np.float32:
            raise TypeError(f"For 'gamma', '{name}' must be a Float32 Tensor, but got {array.dtype}.")
    out_shape = jnp.broadcast_shapes(shape, alpha.shape, beta.shape)
    sample = jax.random.gamma(key, jnp.broadcast_to(alpha, out_shape), out_shape, jnp.float32)
    return sample / beta


def cauchy_sample(shape, median, sigma, seed=None):
    """Float32 samples of the Cauchy distribution (location ``median``, scale ``sigma``)."""
    return wrap(jax.random.cauchy(_key(seed), tuple(shape), jnp.float32) * sigma + median)
