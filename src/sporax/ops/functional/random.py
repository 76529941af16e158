"""Random ops: normal, uniform, rand, randn, randint, randperm, shuffle, bernoulli, multinomial and
choice_with_mask, and the key, dtype and bound helpers every random op shares (``random_distributions`` holds the
Laplace, gamma, Poisson, Cauchy and Gumbel samplers, ``dropouts`` the dropouts).

Seeded (a global seed set, or an op ``seed`` given), ``standard_normal``, ``normal``, ``uniform``, ``rand``,
``randn``, ``randint`` and their ``*_like`` forms draw MindSpore 2.10's own numbers: the op takes MindSpore's
seed pair for its kernel name and the kernel's host stream (``sporax.core.seeded_streams``; under a trace an
ordered host callback, a stream per compiled op that runs on from call to call, as MindSpore's compiled
kernels do). Unseeded, and for the other ops, every op draws a fresh key from the global random state
(``sporax.core.random_state``), so ``set_seed`` makes a run repeat, and under ``jit`` the state is lifted and
advances like a Parameter; an op-level ``seed`` is folded into that key.

Example:
    >>> import sporax
    >>> from sporax import ops
    >>> sporax.core.random_state.set_seed(1)
    >>> ops.rand(2, 3).shape
    (2, 3)
"""
import functools
import numbers

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

from sporax.core import dtype as mstype
from sporax.core import jax_private, philox_samplers, random_state, seeded_streams
from sporax.core.tensor import Tensor
from sporax.state.assign import write
from sporax.ops._dispatch import describe, wrap
from sporax.ops.functional import categorical, choice_mask, random_samples as samples
from sporax.ops.functional._args import numpy_dtype, output_shape, static_int
from sporax.ops.op_table import ANY, op, spelling
from sporax.ops.lowering import float_log
from sporax.ops.random_seeds import fold_seed

_FLOAT32 = np.dtype(np.float32)
_INT64 = np.dtype(np.int64)
# large seeded normal draws call the C library's logf over the array from C (compiled at the first such draw)
seeded_streams.use_array_logf(float_log.array_logf)
# mint's samplers take PyTorch's ``generator``; sporax has one random stream
_GLOBAL_STREAM = {"generator": "sporax draws from the global RNG state (mindspore.set_seed)"}


def _key(seed):
    key = random_state.next_key()
    if seed is None or seed == 0:
        return key
    return fold_seed(key, static_int("random", "seed", seed))


def _seeded(kernel_name):
    """``draw_key(seed)`` of an op whose kernel MindSpore seeds under ``kernel_name``: the kernel's seed pair
    when seeded (``seeded_streams.op_seeds``), else a key from the global random state."""
    def draw(seed):
        seeds = seeded_streams.op_seeds(None if seed is None else static_int(kernel_name, "seed", seed),
                                        kernel_name)
        return random_state.next_key() if seeds == (0, 0) else seeded_streams.SeedPair(*seeds)
    return draw


def _host_draw(key, shape, sample, dtype, operands=()):
    """``sample(stream, count, *operands)`` of the stream ``key`` stands for, as an array of ``shape``: a
    ``SeedPair`` starts a fresh stream (under a trace an ordered host callback drawing at each run), an
    ``OwnedStream`` takes its Primitive's next numbered draw. ``operands`` (arrays, traced or not) reach the
    sampler as NumPy arrays."""
    if isinstance(key, OwnedStream):
        return numbered_draw(key.draws, key.counter, shape, sample, dtype, key.op_name, operands)
    stream_of = {"normal": "minstd_stream", "units": "minstd_stream", "permutation": "minstd_stream",
                 "laplace": "minstd_stream", "gamma": "guarded_philox", "poisson": "poisson_stream",
                 "uniform": "twister_stream", "integers": "twister_stream"}
    # a SeedPair builds its kernel's engine; Randperm's engine comes built (seeded with its plain seed)
    stream = getattr(key, stream_of[sample[0]])() if isinstance(key, seeded_streams.SeedPair) else key
    count = int(np.prod(shape, dtype=np.int64))

    def values(*arrays):
        drawn = getattr(stream, sample[0])(count, *sample[1:], *(np.asarray(array) for array in arrays))
        return drawn.reshape(shape).astype(dtype)

    if jax_private.is_transforming():
        return io_callback(values, jax.ShapeDtypeStruct(shape, dtype), *operands, ordered=True)
    return jnp.asarray(values(*operands))


class OwnedStream:
    """A Primitive's own stream as the key its random op draws from: its ``NumberedDraws``, the int64 Parameter
    counting its draws, and the Primitive's name (for the state layer)."""

    __slots__ = ("draws", "counter", "op_name")

    def __init__(self, draws, counter, op_name):
        self.draws, self.counter, self.op_name = draws, counter, op_name


def numbered_draw(draws, counter, shape, sample, dtype, op_name, operands=()):
    """Draw number ``counter`` (an int64 Parameter, advanced here) of the Primitive-owned ``draws``
    (``seeded_streams.NumberedDraws``): a recomputation repeats the draw; under a trace a pure host callback
    of the counter (and of ``operands``, as ``_host_draw``)."""
    index = counter._value
    write(counter, wrap(index + 1), op_name)
    count = int(np.prod(shape, dtype=np.int64))

    def values(number, *arrays):
        drawn = draws.draw(number, sample[0], count, *sample[1:], *(np.asarray(array) for array in arrays))
        return drawn.reshape(shape).astype(dtype)

    if jax_private.is_transforming():
        return jax.pure_callback(values, jax.ShapeDtypeStruct(shape, dtype), index, *operands)
    return jnp.asarray(values(index, *operands))


def normals(key, shape, dtype=_FLOAT32):
    """N(0, 1) samples of ``shape``: MindSpore's StandardNormal stream for a seed pair or stream, else
    ``jax.random.normal``."""
    if isinstance(key, jax.Array):
        return jax.random.normal(key, shape, dtype)
    return _host_draw(key, shape, ("normal",), _FLOAT32).astype(dtype)


def uniforms(key, shape, dtype=_FLOAT32):
    """Samples uniform in [0, 1) of ``shape``: MindSpore's UniformReal stream, else ``jax.random.uniform``."""
    if isinstance(key, jax.Array):
        return jax.random.uniform(key, shape, dtype)
    return _host_draw(key, shape, ("uniform",), _FLOAT32).astype(dtype)


def integers(key, shape, low, high, dtype):
    """Integers in [``low``, ``high``) of ``shape``: MindSpore's UniformInt stream (``low``/``high`` host
    ints), else ``jax.random.randint``."""
    if isinstance(key, jax.Array):
        return jax.random.randint(key, shape, low, high, dtype)
    return _host_draw(key, shape, ("integers", int(low), int(high)), np.int64).astype(dtype)


def dropped(units, array, keep_prob):
    """MindSpore's Dropout kernel on ``array`` given its float ``units`` (the stream's uniforms, shaped like it):
    ``(output, mask)``, an element kept when its uniform is below ``keep_prob`` (float32), ``mask * input *
    (1 / keep_prob)`` in the input's dtype (Float16 scales in float32 first)."""
    keep_prob = np.float32(keep_prob)
    mask = (units < keep_prob).astype(array.dtype)
    scale = np.float32(1) / keep_prob
    if array.dtype == np.float16:
        return mask * (array.astype(np.float32) * scale).astype(np.float16), mask
    return mask * array * scale.astype(array.dtype), mask


def _float_dtype(op_name, dtype):
    target = _FLOAT32 if dtype is None else numpy_dtype(op_name, "dtype", dtype)
    if target.kind != "f":
        raise ValueError(f"For '{op_name}', the 'dtype' must be a float type, but got {dtype!r}.")
    return target


def _int_dtype(op_name, dtype, default=_INT64):
    target = default if dtype is None else numpy_dtype(op_name, "dtype", dtype)
    if target.kind not in "iu":
        raise ValueError(f"For '{op_name}', the 'dtype' must be an int type, but got {dtype!r}.")
    return target


def _size(op_name, size):
    """Shape from ``rand(2, 3)`` or ``rand((2, 3))``."""
    if len(size) == 1 and not isinstance(size[0], numbers.Integral):
        return output_shape(op_name, "size", size[0])
    return output_shape(op_name, "size", size)


def _bound(op_name, arg_name, value):
    """A distribution parameter: the array of a Tensor, or a Python number as a Float32 array."""
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, jax.Array):  # a Tensor argument, as the compiled kernel receives it
        return value
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return jnp.asarray(value, _FLOAT32)
    raise TypeError(f"For '{op_name}', '{arg_name}' must be a Tensor or a number, but got "
                    f"{describe(value)}.")


@op(mint=spelling("normal", "mean=0.0, std=1.0, size=None, generator=None", shape="size", stddev="std",
                  unsupported=_GLOBAL_STREAM),
    inputs=("mean", "stddev"), dtypes=ANY, random=_seeded("normal"), samples=samples.normal,
    reference=samples.normal_reference, grad_check=False)
def normal(shape, mean, stddev, seed=None, *, key):
    """Samples of N(mean, stddev^2): ``shape`` standard normals times ``stddev`` plus ``mean`` (broadcast).

    Example:
        >>> from sporax import ops
        >>> ops.normal((2, 3), 0.0, 1.0, seed=1).shape
        (2, 3)
    """
    mean = _bound("normal", "mean", mean)
    stddev = _bound("normal", "stddev", stddev)
    # None (mint.normal without a size, PyTorch's rule): one draw per element of the parameters' broadcast shape
    shape = (jnp.broadcast_shapes(mean.shape, stddev.shape) if shape is None
             else output_shape("normal", "shape", shape))
    target = np.dtype(jnp.promote_types(mean.dtype, stddev.dtype))
    if target.kind != "f":
        target = _FLOAT32
    # MindSpore's StandardNormal(shape), broadcast by the arithmetic: a (2, 1) shape with a (3,) mean draws
    # two values, each repeated along the row
    return normals(key, shape).astype(target) * stddev.astype(target) + mean.astype(target)


@op(inputs=(), dtypes=ANY, random=_seeded("standard_normal"), samples=samples.shaped(),
    reference=samples.standard_normal_reference,
    grad_check=False)
def standard_normal(shape, seed=None, *, key):
    """Float32 samples of N(0, 1).

    Example:
        >>> from sporax import ops
        >>> ops.standard_normal((2, 3)).dtype
        mindspore.float32
    """
    return normals(key, output_shape("standard_normal", "shape", shape))


@op(inputs=("minval", "maxval"), dtypes=ANY, random=_seeded("uniform"), samples=samples.uniform,
    reference=samples.uniform_reference, grad_check=False)
def uniform(shape, minval, maxval, seed=None, dtype=mstype.float32, *, key):
    """Samples uniform in ``[minval, maxval)`` (Tensors); an int ``dtype`` draws integers.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.uniform((2,), Tensor(0.0), Tensor(1.0)).shape
        (2,)
    """
    if not isinstance(minval, jax.Array) or not isinstance(maxval, jax.Array):
        raise TypeError("For 'uniform', 'minval' and 'maxval' must be Tensors, for example "
                        "Tensor(0.0, mindspore.float32).")
    target = _FLOAT32 if dtype is None else numpy_dtype("uniform", "dtype", dtype)
    shape = output_shape("uniform", "shape", shape)
    if target.kind in "iu":
        if isinstance(key, jax.Array):
            return jax.random.randint(key, jnp.broadcast_shapes(shape, minval.shape, maxval.shape), minval, maxval,
                                      target)
        # MindSpore's UniformInt(shape, minval, maxval): scalar bounds, read on the host
        return integers(key, shape, _host_int("uniform", "minval", minval), _host_int("uniform", "maxval", maxval),
                        target)
    # MindSpore's UniformReal(shape) * (maxval - minval) + minval, broadcast by the arithmetic
    return uniforms(key, shape, target) * (maxval - minval).astype(target) + minval.astype(target)


def _host_int(op_name, arg_name, value):
    """A scalar integer bound read on the host (MindSpore's UniformInt kernel reads its first element)."""
    if isinstance(value, jax.core.Tracer):
        raise TypeError(f"For '{op_name}', a seeded integer draw reads '{arg_name}' on the host: pass a constant "
                        f"Tensor, not a value computed inside a compiled function.")
    return int(np.asarray(value).reshape(-1)[0])


def _like_dtype(op_name, input, dtype):
    """``dtype``, else the input's: a float type (a ``*_like`` op of an integer input needs ``dtype``)."""
    return _float_dtype(op_name, input.dtype if dtype is None else _float_dtype(op_name, dtype))


def _float_samplers(name, draw, reference, distribution):
    """Declare ``name`` (samples of shape ``size``) and ``name_like`` (shaped like ``input``): floats drawn by
    ``draw(key, shape, dtype)`` (``jax.random.uniform``, ``normal``); ``distribution`` words their docstrings."""
    like_name = f"{name}_like"

    def sized(*size, dtype=None, seed=None, key):
        return draw(key, _size(name, size), _float_dtype(name, dtype))

    def like(input, seed=None, *, dtype=None, key):
        return draw(key, input.shape, _like_dtype(like_name, input, dtype))

    sized.__name__ = sized.__qualname__ = name
    sized.__doc__ = (f"Samples {distribution} of shape ``size`` (Float32 unless ``dtype`` is given).\n\n"
                     f"    Example:\n        >>> from sporax import ops\n        >>> ops.{name}(2, 3).shape\n"
                     f"        (2, 3)\n")
    like.__name__ = like.__qualname__ = like_name
    like.__doc__ = (f"Samples {distribution} shaped like ``input`` (its dtype unless ``dtype`` is given).\n\n"
                    f"    Example:\n        >>> from sporax import Tensor, ops\n"
                    f"        >>> ops.{like_name}(Tensor([1.0, 2.0])).shape\n        (2,)\n")
    declare = functools.partial(op, dtypes=ANY, reference=reference, grad_check=False)
    # mint's face takes its size from a leading tuple/list and ignores the positional arguments after it, as
    # MindSpore 2.10's rand_ext/randn_ext do (``mint.randn((2, 3), mindspore.float16)`` is Float32)
    sized_spelling = spelling(name, "*size, generator=None, dtype=None, device=None", unused="device",
                              unsupported=_GLOBAL_STREAM,
                              size="(size[:1] if size and isinstance(size[0], (tuple, list)) else size)")
    like_spelling = spelling(like_name, "input, *, dtype=None, device=None", unused="device")
    return (declare(inputs=(), samples=samples.sized, mint=sized_spelling, random=_seeded(name))(sized),
            declare(inputs="input", samples=samples.like, mint=like_spelling, random=_seeded(like_name))(like))


rand, rand_like = _float_samplers("rand", uniforms, samples.uniform_unit_reference, "uniform in ``[0, 1)``")
randn, randn_like = _float_samplers("randn", normals, samples.standard_normal_reference, "of N(0, 1)")


def _integers(op_name, key, low, high, shape, target):
    low, high = static_int(op_name, "low", low), static_int(op_name, "high", high)
    if low >= high:
        raise ValueError(f"For '{op_name}', 'low' ({low}) must be less than 'high' ({high}).")
    shape = output_shape(op_name, "size", shape)
    if isinstance(key, jax.Array):
        return jax.random.randint(key, shape, low, high, target)
    return integers(key, shape, low, high, target)


@op(inputs=(), dtypes=ANY, random=_seeded("randint"), samples=samples.randint, reference=samples.randint_reference,
    grad_check=False)
def randint(low, high, size, seed=None, *, dtype=None, key):
    """Integers uniform in ``[low, high)`` of shape ``size`` (Int64 unless ``dtype`` is given).

    Example:
        >>> from sporax import ops
        >>> ops.randint(0, 5, (2, 3)).dtype
        mindspore.int64
    """
    return _integers("randint", key, low, high, size, _int_dtype("randint", dtype))


@op(inputs="input", dtypes=ANY, random=_seeded("randint_like"), samples=samples.randint_like,
    reference=samples.randint_like_reference,
    grad_check=False)
def randint_like(input, low, high, seed=None, *, dtype=None, key):
    """Integers uniform in ``[low, high)`` shaped like ``input``.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.randint_like(Tensor([1, 2, 3]), 0, 5).shape
        (3,)
    """
    target = _int_dtype("randint_like", mstype.from_numpy_dtype(input.dtype) if dtype is None else dtype)
    return _integers("randint", key, low, high, input.shape, target)


def _randperm_engine(seed):
    """MindSpore's RandpermV2 CPU kernel: ``std::shuffle`` over ``std::mt19937(seed)``, the global seed unused (a
    seed of 0 too is a fixed stream); a negative seed (-1: from the OS) draws from the global random state."""
    if isinstance(seed, Tensor) or static_int("randperm", "seed", seed) < 0:
        return _key(None)
    return seeded_streams.TwisterStream(seed)


@op(mint=spelling("randperm", "n, *, generator=None, dtype=mstype.int64", unsupported=_GLOBAL_STREAM),
    inputs=(), dtypes=ANY, random=_randperm_engine, samples=samples.randperm, reference=samples.randperm_reference,
    grad_check=False)
def randperm(n, seed=0, offset=0, dtype=mstype.int64, *, key):
    """A random permutation of ``0 .. n-1`` (Int64 unless ``dtype`` is given): MindSpore's for a seed >= 0 and
    offset 0.

    Example:
        >>> from sporax import ops
        >>> sorted(ops.randperm(4).asnumpy().tolist())
        [0, 1, 2, 3]
    """
    n = static_int("randperm", "n", n)
    target = _int_dtype("randperm", dtype)
    if isinstance(key, jax.Array):
        return jax.random.permutation(key, n).astype(target)
    if static_int("randperm", "offset", offset) != 0:  # an offset's stream is not reproduced: sporax's own
        return jax.random.permutation(jax.random.key(int(seed) ^ int(offset)), n).astype(target)
    return _host_draw(key, (n,), ("permutation",), np.int64).astype(target)


@op(inputs="x", dtypes=ANY, random=_seeded("shuffle"), samples=samples.shuffle, reference=samples.shuffle_reference,
    grad_check=False)
def shuffle(x, seed=None, *, key):
    """``x`` with its first axis randomly permuted.

    Example:
        >>> from sporax import Tensor, ops
        >>> sorted(ops.shuffle(Tensor([1, 2, 3])).asnumpy().tolist())
        [1, 2, 3]
    """
    if not isinstance(x, (jax.Array, jax.core.Tracer)):
        # MindSpore shuffles Tensors only: a Python number is no row count (``shuffle(2)``).
        raise TypeError(f"For 'shuffle', 'x' must be a Tensor, but got {type(x).__name__} {x!r}.")
    if isinstance(key, jax.Array):
        return jax.random.permutation(key, x, axis=0, independent=False)
    # MindSpore's RandomShuffle: std::shuffle of the row numbers over its minstd stream
    return x[_host_draw(key, x.shape[:1], ("permutation",), np.int64)] if x.ndim else x


def _bernoulli_engine(seed):
    """MindSpore's Bernoulli CPU kernel: for a seed > 0, a builder of its ``PhiloxStream(seed)`` (the global seed
    unused); None, 0 and -1 draw from the OS there (sporax: from the global random state)."""
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed > 0:
        return functools.partial(philox_samplers.PhiloxStream, int(seed))
    return _key(seed)


@op(mint=spelling("bernoulli", "input, *, generator=None", p="input", unsupported=_GLOBAL_STREAM),
    inputs=("input", "p"), dtypes=ANY, random=_bernoulli_engine, samples=samples.bernoulli,
    reference=samples.bernoulli_reference, grad_check=False)
def bernoulli(input, p=0.5, seed=None, *, key):
    """Zeros and ones (in ``input``'s dtype) drawn with probability ``p`` of one; a seed > 0 draws MindSpore's
    numbers: an element is one when its float uniform is at most ``p``, from the stream of the kernel for these
    shapes and dtypes (a number ``p`` is a (1,) Float32 Tensor), or under a trace of the compiled op.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.bernoulli(Tensor([0.0, 0.0]), 1.0).asnumpy().tolist()
        [1.0, 1.0]
    """
    if isinstance(key, jax.Array):
        return jax.random.bernoulli(key, p, input.shape).astype(input.dtype)
    if jax_private.is_transforming():
        stream = key()
    else:
        p_type = (p.shape, p.dtype) if isinstance(p, jax.Array) else ((1,), _FLOAT32)
        stream = seeded_streams.eager_kernel(("Bernoulli", *key.args, input.shape, input.dtype, *p_type), key)
    return (_host_draw(stream, input.shape, ("units",), _FLOAT32) <= p).astype(input.dtype)


@op(inputs="input", dtypes=ANY, random=_seeded("multinomial"), samples=samples.multinomial,
    reference=samples.multinomial_reference, grad_check=False)
def multinomial(input, num_samples, replacement=True, seed=None, *, key):
    """Int32 class indices drawn from the rows of ``input`` (non-negative weights).

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.multinomial(Tensor([[0.0, 1.0]]), 3).asnumpy().tolist()
        [[1, 1, 1]]
    """
    num_samples = static_int("multinomial", "num_samples", num_samples)
    if input.ndim not in (1, 2):
        raise ValueError(f"For 'multinomial', 'input' must be 1-d or 2-d, but got shape {input.shape}.")
    if not replacement and num_samples > input.shape[-1]:
        raise ValueError(f"For 'multinomial', cannot draw {num_samples} samples without replacement "
                         f"from {input.shape[-1]} classes.")
    if not isinstance(key, jax.Array):
        return _seeded_multinomial(key, input, num_samples, replacement)
    logits = jnp.log(input.astype(np.float32))
    if replacement:
        shape = (num_samples,) + input.shape[:-1]
        draws = jax.random.categorical(key, logits, axis=-1, shape=shape)
        draws = jnp.moveaxis(draws, 0, -1)
    else:
        # Gumbel top-k: the k largest perturbed logits are a sample without replacement.
        gumbel = jax.random.gumbel(key, logits.shape, np.float32)
        draws = jax.lax.top_k(logits + gumbel, num_samples)[1]
    return draws.astype(np.int32)


def _seeded_multinomial(key, input, num_samples, replacement):
    """MindSpore's seeded multinomial. With replacement its Multinomial kernel: per row (row-major) one float
    uniform of the minstd stream per sample, the first class whose normalised running sum exceeds it. Without,
    its composition: UniformReal over every weight, ``log(u) / (weight + 1e-6)``, the ``num_samples`` largest."""
    rows = input.reshape(-1, input.shape[-1]).astype(np.float32)
    if replacement:
        units = _host_draw(key, (rows.shape[0], num_samples), ("units",), np.float32)
        cumulative = jnp.cumsum(rows, axis=-1)
        cumulative = cumulative / cumulative[:, -1:]
        draws = jnp.sum(cumulative[:, None, :] <= units[:, :, None], axis=-1)
        draws = jnp.minimum(draws, rows.shape[-1] - 1)
    else:
        scores = jnp.log(uniforms(key, rows.shape)) / (rows + np.float32(1e-6))
        draws = jax.lax.top_k(scores, num_samples)[1]
    return draws.reshape(input.shape[:-1] + (num_samples,)).astype(np.int32)


@op(inputs="input_x", dtypes=ANY, random=_seeded("choice_with_mask"), samples=samples.choice_with_mask,
    reference=samples.choice_with_mask_reference, grad_check=False)
def choice_with_mask(input_x, count=256, seed=None, *, key):
    """``count`` random coordinates of the True elements of a Bool tensor, and a mask of which
    rows are real (when there are fewer True elements than ``count``, the rest are zeros); seeded, MindSpore's
    (a RandomChoiceWithMask kernel built on the call's seed pair, ``choice_mask``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> index, mask = ops.choice_with_mask(Tensor(np.array([True, False, True])), 4)
        >>> index.shape, mask.asnumpy().tolist()
        ((4, 1), [True, True, False, False])
    """
    if input_x.dtype != np.bool_:
        raise TypeError(f"For 'choice_with_mask', 'input_x' must be a Bool Tensor, but got {describe(input_x)}.")
    count = static_int("choice_with_mask", "count", count)
    if isinstance(key, seeded_streams.SeedPair):
        choice_mask.check_count(count, input_x.ndim)
        return choice_mask.choose(input_x, np.int64(categorical.engine_seed(key.seed2, key.seed)), count)[:2]
    return _choice_with_mask(key, input_x, count)


def _choice_with_mask(key, flags, count):
    flat = flags.reshape(-1)
    size = flat.shape[0]
    # A random score per True element (-1 for False ones); the top ``count`` are the sample.
    scores = jnp.where(flat, jax.random.uniform(key, (size,)), -1.0)
    if count > size:
        scores = jnp.concatenate([scores, jnp.full((count - size,), -1.0)])
    top, picked = jax.lax.top_k(scores, count)
    mask = top >= 0
    coords = jnp.stack(jnp.unravel_index(jnp.minimum(picked, size - 1), flags.shape), -1).astype(np.int32)
    return jnp.where(mask[:, None], coords, 0), mask


def check_probability(op_name, value):
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value <= 1:
        raise ValueError(f"For '{op_name}', 'p' must be a number in [0, 1] or a Tensor, but got {value!r}.")
    return value
