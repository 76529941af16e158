"""Random-distribution Primitive classes: ``RandomGamma``, ``RandomPoisson``, ``Poisson``, ``RandomShuffle``,
``Randperm``, ``RandpermV2``, ``TruncatedNormal``, ``ParameterizedTruncatedNormal``, ``NonDeterministicInts``,
``LogNormalReverse``, ``MultinomialWithReplacement``, ``Bernoulli``, ``Cauchy``, ``Gamma`` and the dropout masks
(``DropoutGenMask``/``DropoutDoMask``); the candidate samplers live in ``candidate_sampling_ops``.

Like ``random_ops`` they draw keys from the global random state (``set_seed`` repeats a run) with
``seed``/``seed2`` folded in.

Example:
    >>> from sporax import Tensor, ops
    >>> ops.RandomShuffle(seed=1)(Tensor([1, 2, 3])).shape
    (3,)
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops import functional
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional import dropouts, random as random_functions, random_distributions
from sporax.ops.functional import random_samples as samples
from sporax.ops.functional._args import _concrete, check_output_size, output_shape, static_int
from sporax.ops.op_table import ANY, op
from sporax.ops.operations.random_ops import _KernelStreamPrimitive, _RandomPrimitive
from sporax.ops.primitive import Primitive, prim_attr_register


def _shape(op_name, shape):
    if hasattr(shape, "asnumpy") or isinstance(shape, (jax.Array, np.ndarray)):
        values = tuple(int(v) for v in np.asarray(_concrete(op_name, "shape", shape)).reshape(-1))
        return check_output_size(op_name, "shape", values)
    return output_shape(op_name, "shape", shape)


def _shape_tensor(op_name, shape):
    """``_shape`` as the 1-D int array ``random_poisson``'s kernel takes (it refuses a tuple, as MindSpore does)."""
    return np.asarray(_shape(op_name, shape), np.int64)


def _numpy_dtype(dtype):
    return mstype.to_numpy_dtype(mstype.normalize(dtype))


# Kernels of Primitives MindSpore has no functional name for: op-table entries all the same (samples and
# distributions in ``random_samples``), not exported by ``ops``.
@op(inputs=(), dtypes=ANY, random=random_functions._key, samples=samples.truncated_normal,
    reference=samples.truncated_normal_reference, grad_check=False)
def truncated_normal(shape, dtype=mstype.float32, seed=None, *, key):
    """N(0, 1) samples truncated to [-2, 2] (``TruncatedNormal``'s kernel).

    Example:
        >>> from sporax.ops.operations.random_distribution_ops import truncated_normal
        >>> bool(abs(truncated_normal((100,))).max() <= 2)
        True
    """
    sample = jax.random.truncated_normal(key, -2.0, 2.0, output_shape("TruncatedNormal", "shape", shape), np.float32)
    return sample.astype(_numpy_dtype(dtype))


@op(inputs=("mean", "stdevs", "min", "max"), dtypes=ANY, random=random_functions._key,
    samples=samples.parameterized_truncated_normal, reference=samples.parameterized_truncated_normal_reference,
    grad_check=False)
def parameterized_truncated_normal(shape, mean, stdevs, min, max, seed=None, *, key):
    """Per batch row ``i``, N(``mean[i]``, ``stdevs[i]``**2) samples truncated to [``min[i]``, ``max[i]``]
    (``ParameterizedTruncatedNormal``'s kernel).

    Example:
        >>> from sporax import Tensor
        >>> from sporax.ops.operations.random_distribution_ops import parameterized_truncated_normal
        >>> parameterized_truncated_normal((2, 3), Tensor([0.0]), Tensor([1.0]), Tensor([-1.0]), Tensor([1.0])).shape
        (2, 3)
    """
    out_shape = output_shape("ParameterizedTruncatedNormal", "shape", shape)
    arrays = (mean, stdevs, min, max)
    for name, array in zip(("mean", "stdevs", "min", "max"), arrays):
        if not isinstance(array, jax.Array):
            raise TypeError(f"For 'ParameterizedTruncatedNormal', the argument '{name}' must be a Tensor, but got "
                            f"{type(array).__name__}.")
    dtype = mean.dtype
    column = (-1,) + (1,) * (len(out_shape) - 1)
    mu, sigma, low, high = (jnp.broadcast_to(a.reshape(-1), (out_shape[0],)).reshape(column) for a in arrays)
    standard = jax.random.truncated_normal(key, (low - mu) / sigma, (high - mu) / sigma, out_shape, jnp.float32)
    return (standard * sigma + mu).astype(dtype)


@op(inputs=(), dtypes=ANY, random=random_functions._key, samples=samples.non_deterministic_ints,
    reference=samples.non_deterministic_ints_reference, grad_check=False)
def non_deterministic_ints(shape, dtype=mstype.int64, *, key):
    """Integers uniform over the whole range of ``dtype`` (``NonDeterministicInts``' kernel).

    Example:
        >>> from sporax.ops.operations.random_distribution_ops import non_deterministic_ints
        >>> non_deterministic_ints((3,)).dtype
        mindspore.int64
    """
    target = np.dtype(_numpy_dtype(dtype))
    bits = jax.random.bits(key, output_shape("NonDeterministicInts", "shape", shape),
                           np.dtype(f"uint{target.itemsize * 8}"))
    return jax.lax.bitcast_convert_type(bits, target)


class RandomGamma(_KernelStreamPrimitive):
    """Gamma(``alpha``, 1) samples of shape ``shape + alpha.shape``; with a seed, MindSpore's kernel stream
    running on from call to call.

    Inputs:
        - **shape** (Tensor[int]) - 1-D. **alpha** (Tensor) - float concentrations.
    """

    _make = "guarded_philox"

    def __call__(self, shape, alpha):
        array_of("RandomGamma", "alpha", alpha)
        return random_distributions.random_gamma.entry.sample(self._key(), _shape_tensor("RandomGamma", shape), alpha)


class RandomPoisson(_KernelStreamPrimitive):
    """Poisson(``rate``) samples of shape ``shape + rate.shape`` (``dtype``: Int64 by default); with a seed,
    MindSpore's kernel stream running on from call to call.

    Inputs:
        - **shape** (Tensor[int]) - 1-D. **rate** (Tensor) - the means.
    """

    _make = "poisson_stream"

    @prim_attr_register
    def __init__(self, seed=0, seed2=0, dtype=mstype.int64):
        self.seed, self.seed2, self.dtype = seed, seed2, dtype
        self._start_stream()

    def __call__(self, shape, rate):
        array_of("RandomPoisson", "rate", rate)
        return random_distributions.random_poisson.entry.sample(self._key(), _shape_tensor("RandomPoisson", shape), rate,
                                                             dtype=self.dtype)


class Poisson(_RandomPrimitive):
    """Int32 Poisson(``mean``) samples of shape ``shape + mean.shape``.

    Inputs:
        - **shape** (tuple[int]). **mean** (Tensor[float32]).
    """

    def __call__(self, shape, mean):
        array_of("Poisson", "mean", mean)
        return random_distributions.random_poisson.entry.sample(self._key(), _shape_tensor("Poisson", shape), mean,
                                                             dtype=mstype.int32)


@op(inputs="mean", dtypes=ANY, random=random_functions._key, samples=samples.poisson,
    reference=samples.poisson_reference, grad_check=False)
def poisson(shape, mean, seed=None, *, key):
    """Float32 Poisson(``mean``) samples of shape ``shape + mean.shape`` (``ops.random_poisson`` in Float32).

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.poisson((3,), Tensor([1.0, 5.0])).shape
        (3, 2)
    """
    return random_distributions.random_poisson.entry.kernel(_shape_tensor("poisson", shape), mean, seed, mstype.float32,
                                                            key=key)


class RandomShuffle(_RandomPrimitive):
    """``x`` with its first axis randomly permuted.

    Inputs:
        - **x** (Tensor).
    """

    def __call__(self, x):
        array = array_of("RandomShuffle", "x", x)
        if array.ndim == 0:
            return wrap(array)
        return random_functions.shuffle.entry.sample(self._key(), x)


class Randperm(Primitive):
    """A random permutation of ``0 .. n-1`` padded with ``pad`` to ``max_length``.

    Inputs:
        - **n** (Tensor[int]) - shape (1,), at most ``max_length``.
    """

    @prim_attr_register
    def __init__(self, max_length=1, pad=-1, dtype=mstype.int32):
        if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 1:
            raise ValueError(f"For 'Randperm', 'max_length' must be a positive int, but got {max_length!r}.")
        self.max_length, self.pad, self.dtype = max_length, pad, dtype

    def __call__(self, n):
        count = int(np.asarray(_concrete("Randperm", "n", n)).reshape(-1)[0])
        if not 0 <= count <= self.max_length:
            raise ValueError(f"For 'Randperm', 'n' must lie in [0, max_length={self.max_length}], but got {count}.")
        order = random_functions.randperm(count, dtype=self.dtype)
        return functional.pad(order, (0, self.max_length - count), value=self.pad)


class RandpermV2(Primitive):
    """A random permutation of ``0 .. n-1``.

    Inputs:
        - **n** (Union[int, Tensor]) - the length.
    """

    @prim_attr_register
    def __init__(self, seed=0, offset=0, dtype=mstype.int64):
        self.seed, self.offset, self.dtype = seed, offset, dtype

    def __call__(self, n, seed=None, offset=None):
        count = static_int("RandpermV2", "n", n)
        if count < 0:
            raise ValueError(f"For 'RandpermV2', 'n' must be non-negative, but got {count}.")
        return random_functions.randperm(count, self.seed if seed is None else seed, 0, self.dtype)


class TruncatedNormal(_RandomPrimitive):
    """N(0, 1) samples truncated to [-2, 2].

    Args:
        dtype (mindspore.dtype): a float type. Default: float32.

    Inputs:
        - **shape** (Tensor[int]) - 1-D.
    """

    @prim_attr_register
    def __init__(self, dtype=mstype.float32, seed=0, seed2=0):
        self.seed, self.seed2, self.dtype = seed, seed2, dtype
        self._start_stream()

    def __call__(self, shape):
        return truncated_normal.entry.sample(self._key(), _shape("TruncatedNormal", shape), self.dtype)


class ParameterizedTruncatedNormal(_RandomPrimitive):
    """Per batch row ``i``, N(``mean[i]``, ``stdevs[i]``**2) samples truncated to [``min[i]``, ``max[i]``].

    Inputs:
        - **shape** (Tensor[int]) - (batch, ...). **mean**, **stdevs**, **min**, **max** (Tensor) - (batch,) or (1,).
    """

    def __call__(self, shape, mean, stdevs, min, max):
        return parameterized_truncated_normal.entry.sample(
            self._key(), _shape("ParameterizedTruncatedNormal", shape), mean, stdevs, min, max)


class NonDeterministicInts(Primitive):
    """Integers uniform over the whole range of ``dtype`` (int32 or int64).

    Inputs:
        - **shape** (Tensor[int]) - 1-D.
    """

    @prim_attr_register
    def __init__(self, dtype=mstype.int64):
        if mstype.normalize(dtype) not in (mstype.int32, mstype.int64, mstype.uint32, mstype.uint64):
            raise TypeError(f"For 'NonDeterministicInts', 'dtype' must be int32, int64, uint32 or uint64, but got "
                            f"{dtype!r}.")
        self.dtype = dtype

    def __call__(self, shape):
        return non_deterministic_ints(_shape("NonDeterministicInts", shape), self.dtype)


class LogNormalReverse(Primitive):
    """Samples ``exp(N(mean, std**2))`` of the shape and dtype of ``input``.

    Inputs:
        - **input** (Tensor) - float16 or float32.
    """

    @prim_attr_register
    def __init__(self, mean=1.0, std=2.0):
        if std <= 0:
            raise ValueError(f"For 'LogNormalReverse', 'std' must be positive, but got {std!r}.")
        self.mean, self.std = mean, std

    def __call__(self, input):
        array = array_of("LogNormalReverse", "input", input)
        if array.dtype.kind != "f":
            raise TypeError(f"For 'LogNormalReverse', 'input' must be float16 or float32, but got {array.dtype}.")
        return functional.exp(random_functions.normal(array.shape, self.mean, self.std)).astype(array.dtype)


def _stream_value(op_name, name, value):
    """The int of a Python int or a one-element Tensor (read on the host: it picks the stream); a Tensor that
    reached the kernel as a setting is the tuple of its values (``Tensor([50])``: ``(50,)``)."""
    if hasattr(value, "asnumpy"):
        value = _concrete(op_name, name, value)
    return int(np.asarray(value).reshape(-1)[0])


@op(inputs="x", dtypes=ANY, random=lambda seed: random_functions._key(
        _stream_value("multinomial_with_replacement", "seed", seed) or None),
    samples=samples.multinomial_with_replacement, reference=samples.multinomial_with_replacement_reference,
    grad_check=False)
def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False, *, key):
    """``numsamples`` Int64 category indices per row of the (unnormalised) probabilities ``x``; ``seed`` picks the
    stream and ``offset`` is folded into it.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.multinomial_with_replacement(Tensor([[0.0, 1.0, 0.0]]), 5, 0, 4, True).asnumpy().tolist()
        [[1, 1, 1, 1]]
    """
    probabilities = x
    if probabilities.ndim not in (1, 2):
        raise ValueError(f"For 'multinomial_with_replacement', 'x' must be 1-D or 2-D, but got shape "
                         f"{tuple(probabilities.shape)}.")
    rows = probabilities.reshape((-1, probabilities.shape[-1]))
    if not replacement and numsamples > rows.shape[1]:
        raise ValueError(f"For 'multinomial_with_replacement', 'numsamples' ({numsamples}) must be at most the "
                         f"number of categories ({rows.shape[1]}) without replacement.")
    key = jax.random.fold_in(key, _stream_value("multinomial_with_replacement", "offset", offset))
    logits = jnp.log(rows.astype(jnp.float32))
    if replacement:
        samples = jax.random.categorical(key, logits[:, None, :], axis=-1, shape=(rows.shape[0], numsamples))
    else:
        gumbel = jax.random.gumbel(key, logits.shape) + logits
        samples = jnp.argsort(-gumbel, axis=-1)[:, :numsamples]
    samples = samples.astype(jnp.int64)
    return samples.reshape(probabilities.shape[:-1] + (numsamples,))


class MultinomialWithReplacement(Primitive):
    """``numsamples`` category indices per row of ``x`` (``ops.multinomial_with_replacement``).

    Inputs:
        - **x** (Tensor). **seed**, **offset** (Tensor[int64]) - scalars.
    """

    @prim_attr_register
    def __init__(self, numsamples, replacement=False):
        self.numsamples, self.replacement = numsamples, replacement

    def __call__(self, x, seed, offset):
        return multinomial_with_replacement(x, seed, offset, self.numsamples, self.replacement)


def _seed(seed, seed2=0):
    return None if not seed and not seed2 else int(seed) * 1000003 + int(seed2)


class Bernoulli(Primitive):
    """0/1 draws of probability ``p`` (a number or a broadcastable Tensor) in ``x``'s shape and dtype.

    Args:
        seed (int): -1 for a fresh stream; > 0 draws MindSpore's numbers (``ops.bernoulli``). offset (int): unused,
            as by MindSpore 2.10's CPU kernel. Default: 0.
    """

    @prim_attr_register
    def __init__(self, seed=-1, offset=0):
        self.seed, self.offset = seed, offset

    def __call__(self, x, p):
        array_of(self.name, "x", x)
        random_functions.check_probability(self.name, p)
        # a number p is a () Tensor here (a (1,) one in ops.bernoulli): another kernel, another stream
        return random_functions.bernoulli(x, p if isinstance(p, Tensor) else Tensor(p, mstype.float32),
                                          None if self.seed == -1 else self.seed)


class Cauchy(Primitive):
    """Float32 Cauchy samples of shape ``size``.

    Args:
        size (list[int]): the shape. median (float): Default: 0.0. sigma (float): > 0. Default: 1.0.
    """

    @prim_attr_register
    def __init__(self, size, median=0.0, sigma=1.0):
        if not isinstance(size, (list, tuple)) or not all(isinstance(s, numbers.Integral) and s > 0 for s in size):
            raise ValueError(f"For 'Cauchy', 'size' must be a list of positive ints, but got {size!r}.")
        if sigma <= 0:
            raise ValueError(f"For 'Cauchy', 'sigma' must be positive, but got {sigma}.")
        self.size, self.median, self.sigma = tuple(size), median, sigma

    def __call__(self):
        return random_distributions.cauchy_sample(self.size, self.median, self.sigma)


class Gamma(Primitive):
    """Gamma(``alpha``, rate ``beta``) samples of shape ``shape`` broadcast with ``alpha`` and ``beta``.

    Args:
        seed (int), seed2 (int): Default: 0.
    """

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        self.seed, self.seed2 = seed, seed2

    def __call__(self, shape, alpha, beta):
        return random_distributions.gamma(tuple(shape), alpha, beta, _seed(self.seed, self.seed2))


class DropoutGenMask(Primitive):
    """A packed UInt8 bit mask (one bit per element of ``shape``, kept with probability ``keep_prob``) for
    ``DropoutDoMask``.

    Args:
        Seed0 (int), Seed1 (int): Default: 0.
    """

    @prim_attr_register
    def __init__(self, Seed0=0, Seed1=0):
        self.seed0, self.seed1 = Seed0, Seed1

    def __call__(self, shape, keep_prob):
        probability = float(keep_prob.asnumpy()) if isinstance(keep_prob, Tensor) else float(keep_prob)
        if not 0 <= probability <= 1:
            raise ValueError(f"For '{self.name}', 'keep_prob' must be in [0, 1], but got {probability}.")
        return dropouts.dropout_gen_mask(tuple(shape), probability, _seed(self.seed0, self.seed1))


class DropoutDoMask(Primitive):
    """``input_x * bit / keep_prob`` with the bits of a ``DropoutGenMask`` mask."""

    def __call__(self, input_x, mask, keep_prob):
        probability = keep_prob._value if isinstance(keep_prob, Tensor) else keep_prob
        return dropouts.dropout_do_mask(input_x, mask, probability)


class StandardLaplace(_KernelStreamPrimitive):
    """Float32 samples of the standard Laplace distribution; with a seed, MindSpore's kernel stream running on
    from call to call.

    Args:
        seed, seed2 (int): op seeds.

    Inputs:
        - **shape** (tuple[int]).
    """

    _make = "minstd_stream"

    def __call__(self, shape):
        return random_distributions.standard_laplace.entry.sample(self._key(), shape)
