"""Primitive classes for random ops: StandardNormal, UniformReal, UniformInt, RandomCategorical, ...

With ``seed`` or ``seed2`` set, StandardNormal, UniformReal and UniformInt own MindSpore 2.10's kernel
stream (``sporax.core.seeded_streams``): the instance's first call starts it, later calls run on, so their
values are MindSpore's. The others, and any with neither seed set, draw keys from the global random state
like the functional random ops, with ``seed`` and ``seed2`` folded in when set.

Example:
    >>> from sporax import ops
    >>> ops.UniformReal(seed=2)((2, 3)).shape
    (2, 3)
"""
import numpy as np

from sporax.core import dtype as mstype, jax_private
from sporax.core.philox_samplers import OffsetPhiloxStream
from sporax.core.seeded_streams import NumberedDraws, SeedPair
from sporax.ops import functional
from sporax.ops._dispatch import array_of, wrap
from sporax.ops.functional import random as random_ops
from sporax.ops.functional import categorical, choice_mask
from sporax.ops.functional._args import static_int
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.state.assign import write
from sporax.ops.primitive import Primitive, prim_attr_register


class _RandomPrimitive(Primitive):
    """Seeds: with ``seed`` or ``seed2`` set, the instance owns a stream started from both (a new instance
    with the same seeds repeats it, each call advances it, as MindSpore's kernels do); with neither set
    it draws from the global random state."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        self.seed, self.seed2 = seed, seed2
        self._start_stream()

    def _start_stream(self):
        self._calls = None
        if self.seed or self.seed2:
            self._calls = Parameter(Tensor(np.zeros((), np.int64)), name=f"{type(self).__name__}_calls",
                                    requires_grad=False)
            self._base_key = categorical.mixed_seed(self.seed, self.seed2) % 2**62

    def _key(self):
        if self._calls is None:
            return random_ops._key(None)
        calls = self._calls._value
        write(self._calls, wrap(calls + 1), type(self).__name__)
        return categorical.stream_key(self._base_key, calls)


class _KernelStreamPrimitive(_RandomPrimitive):
    """A random Primitive whose seeded instances own MindSpore's kernel stream (a host object whose draws the
    ``_calls`` Parameter numbers; ``_make`` names the ``SeedPair`` method that builds it)."""

    _make = None

    def _key(self):
        if not (self.seed or self.seed2):
            return super()._key()
        draws = self.__dict__.get("_draws")
        if draws is None:
            draws = self._draws = NumberedDraws(getattr(SeedPair(self.seed, self.seed2), self._make)())
        return random_ops.OwnedStream(draws, self._calls, type(self).__name__)


class StandardNormal(_KernelStreamPrimitive):
    """Float32 samples of N(0, 1).

    Args:
        seed, seed2 (int): op seeds. Default: 0.

    Inputs:
        - **shape** (tuple[int]).
    """

    _make = "minstd_stream"

    def __call__(self, shape):
        return random_ops.standard_normal.entry.sample(self._key(), shape)


class UniformReal(_KernelStreamPrimitive):
    """Float32 samples uniform in [0, 1).

    Args:
        seed, seed2 (int): op seeds. Default: 0.

    Inputs:
        - **shape** (tuple[int]).
    """

    _make = "twister_stream"

    def __call__(self, shape):
        return random_ops.rand.entry.sample(self._key(), shape)


class UniformInt(_KernelStreamPrimitive):
    """Int32 samples uniform in [minval, maxval).

    Args:
        seed, seed2 (int): op seeds. Default: 0.

    Inputs:
        - **shape** (tuple[int]), **minval** (Tensor), **maxval** (Tensor) - 0-d Int32.
    """

    _make = "twister_stream"

    def __call__(self, shape, minval, maxval):
        for name, value in (("minval", minval), ("maxval", maxval)):
            array_of("UniformInt", name, value)
        return random_ops.uniform.entry.sample(self._key(), shape, minval, maxval, dtype=mstype.int32)


class RandomChoiceWithMask(_RandomPrimitive):
    """Random coordinates of the True elements of a Bool tensor, with a validity mask.

    Args:
        count (int): how many coordinates. Default: 256.
        seed, seed2 (int): op seeds.

    Inputs:
        - **input_x** (Tensor[Bool]).

    Outputs:
        ``(index, mask)``: Int32 (count, rank) coordinates and a Bool (count,) mask.
    """

    @prim_attr_register
    def __init__(self, count=256, seed=0, seed2=0):
        self.count = static_int("RandomChoiceWithMask", "count", count)
        self.seed = static_int("RandomChoiceWithMask", "seed", seed)
        self.seed2 = static_int("RandomChoiceWithMask", "seed2", seed2)
        if self.count <= 0:
            raise ValueError(f"For 'RandomChoiceWithMask', 'count' must be positive, but got {count}.")
        if self.seed == 0 and self.seed2 == 0:  # MindSpore seeds the kernel from the OS then
            start = categorical.engine_seed(int(np.random.SeedSequence().entropy % 2**63), 1)
        else:  # seed plays MindSpore's "global" part of the scramble, seed2 the op part
            start = categorical.engine_seed(self.seed2, self.seed)
        self._stream = Parameter(Tensor(np.array(start, np.int64)), name="random_choice_with_mask_stream",
                                 requires_grad=False)

    def __call__(self, input_x):
        flags = array_of("RandomChoiceWithMask", "input_x", input_x)
        if flags.dtype != np.bool_:
            raise TypeError(f"For 'RandomChoiceWithMask', 'input_x' must be a Bool Tensor, but got {flags.dtype}.")
        if not 1 <= flags.ndim <= 5:
            raise ValueError(f"For 'RandomChoiceWithMask', 'input_x' must have rank 1 to 5, but got {flags.ndim}.")
        choice_mask.check_count(self.count, flags.ndim)
        index, mask, state = choice_mask.choose(flags, self._stream._value, self.count)
        write(self._stream, wrap(state), "RandomChoiceWithMask")
        return wrap(index), wrap(mask)


class Multinomial(_RandomPrimitive):
    """Class indices drawn from the rows of a probability tensor.

    Args:
        seed, seed2 (int): op seeds. dtype (mindspore.dtype): Int32 by default.

    Inputs:
        - **x** (Tensor) - (N, C) or (C,) weights. **num_samples** (int).
    """

    @prim_attr_register
    def __init__(self, seed=0, seed2=0, dtype=mstype.int32):
        self.seed, self.seed2, self.dtype = seed, seed2, dtype
        self._start_stream()

    def __call__(self, x, num_samples):
        weights = array_of("Multinomial", "x", x)
        num_samples = static_int("Multinomial", "num_samples", num_samples)
        if weights.ndim not in (1, 2):
            raise ValueError(f"For 'Multinomial', 'x' must be 1-D or 2-D, but got shape {weights.shape}.")
        # vmap over rows gives the batched call's draws (categorical.row_draws' batching rule)
        draws = categorical.weighted_row_draws(self._key(), weights, num_samples)
        return wrap(draws.astype(np.int32)) if self.dtype is None else functional.cast(wrap(draws), self.dtype)


class RandomCategorical(Primitive):
    """Class indices drawn from ``softmax(logits)`` rows, reproducing MindSpore's CPU streams.

    Args:
        dtype (mindspore.dtype): Int16, Int32 or Int64 output. Default: Int64.

    Inputs:
        - **logits** (Tensor) - (batch, classes) float16/32/64 unnormalised log-probabilities.
        - **num_sample** (int) - samples per row.
        - **seed** (int) - the op seed; a repeated call with the same arguments continues its stream.

    Outputs:
        Tensor of shape (batch, num_sample).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.RandomCategorical()(Tensor(np.log([[0.5, 0.5]]).astype(np.float32)), 4, 5).shape
        (1, 4)
    """

    @prim_attr_register
    def __init__(self, dtype=mstype.int64):
        self._target = categorical.output_dtype(dtype)
        self.dtype = dtype
        # Rows of [engine state, id of the call signature it belongs to] (id 0: unused): each signature
        # keeps its own stream (MindSpore keeps one kernel per signature); ids share rows modulo 16.
        self._stream = Parameter(Tensor(np.zeros((16, 2), np.int64)), name="random_categorical_stream",
                                 requires_grad=False)
        self._signatures = {}

    def __call__(self, logits, num_sample, seed=0):
        values, num_sample, seed = categorical.checked(logits, num_sample, seed)
        signature = (values.shape, values.dtype, num_sample, seed)
        signature_id = self._signatures.setdefault(signature, len(self._signatures) + 1)
        row = (signature_id - 1) % self._stream.shape[0]
        index, stream = categorical.stream_draw(self._stream._value, row, signature_id, values, seed, num_sample)
        write(self._stream, wrap(stream), "RandomCategorical")
        return wrap(index.astype(self._target))


class Uniform(Primitive):
    """Uniform values in ``[minval, maxval)`` shaped and typed like ``x`` (MindSpore's random_ops.Uniform).

    With ``seed`` set the instance owns MindSpore 2.10's CPU stream for ``(seed, offset)``
    (``core.philox_samplers.OffsetPhiloxStream``): values equal MindSpore's, each call runs on. ``seed=0`` draws a
    fresh seed from the operating system, as MindSpore's non-deterministic default does.

    Args:
        minval (float): the lower bound, at least 0. maxval (float): the upper bound, at least ``minval``.
        seed (int), offset (int): the stream's key and counter.

    Inputs:
        - **x** (Tensor) - Float16, Float32 or Float64; only its shape and dtype are read.

    Outputs:
        Tensor like ``x``.
    """

    @prim_attr_register
    def __init__(self, minval=0.0, maxval=1.0, seed=0, offset=0):
        if not isinstance(minval, float) or minval < 0:
            raise ValueError(f"For 'Uniform', the 'minval' must be float and must >= 0, but got {minval!r}.")
        if not isinstance(maxval, float) or maxval < minval:
            raise ValueError(f"For 'Uniform', the 'minval' should be <= maxval: {maxval}, but got {minval}.")
        self.minval, self.maxval = minval, maxval
        seed = seed or int(np.random.SeedSequence().entropy % 2**63)  # MindSpore's seed 0: a new stream each time
        self._stream_key = (seed, offset)
        self._stream = OffsetPhiloxStream(seed, offset)

    def __call__(self, x):
        if not isinstance(x, Tensor) or str(x.dtype) not in ("Float16", "Float32", "Float64"):
            raise TypeError(f"For 'Uniform', the input 'x' must be a Tensor of Float16, Float32 or Float64, but got "
                            f"{getattr(x, 'dtype', type(x).__name__)}.")
        # a compiled call owns a kernel of its own, started afresh and running on from run to run (MindSpore 2.10)
        stream = OffsetPhiloxStream(*self._stream_key) if jax_private.is_transforming() else self._stream
        units = random_ops._host_draw(stream, tuple(x.shape), ("units",), np.float32)
        values = units * np.float32(self.maxval - self.minval) + np.float32(self.minval)
        return wrap(values.astype(mstype.dtype_to_nptype(x.dtype)))
