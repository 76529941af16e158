"""``RandomCategorical``: class indices drawn from softmax(logits) with MindSpore's CPU stream.

MindSpore's CPU kernel, observed on 2.10 and reproduced bit for bit here:

1. The op seed is scrambled into a 64-bit engine seed by one Philox-4x32-10 block (key
   ``0x3ec8f720, 0x02461e29``, counter ``(0, 0, seed_lo, seed_hi)``; the first two words form the seed).
2. The engine is the minimal-standard LCG ``x <- 16807 x mod (2^31 - 1)`` (C++'s
   ``default_random_engine``), seeded with that value mod ``2^31 - 1``.
3. Each sample takes two LCG outputs as one double in [0, 1) (``generate_canonical`` with 53 bits),
   rounded to float32 and then to the logits' dtype; all rows of a call share the sample's number.
4. Row ``b`` picks the first class whose running sum of ``exp(logit - row max)`` reaches
   ``u * total`` (sums in the logits' dtype).

The engine state lives with the Primitive, one stream per call signature (logits shape and dtype,
``num_sample``, ``seed``): a repeated call continues its stream, as MindSpore's cached kernel does.
The state is a Parameter, so a compiled Cell advances it like any other lifted state.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.seeded_streams import mixed_seed
from sporax.ops._dispatch import array_of
from sporax.ops.functional._args import static_int
from sporax.ops.op_table import FLOAT, Sample, op

_MODULUS = 2**31 - 1
_MULTIPLIER = 16807
_RANGE = float(_MODULUS - 1)


def engine_seed(seed, global_seed=0):
    """The LCG start state for an op seed (Python ints: the seed is static, as in MindSpore)."""
    return mixed_seed(global_seed, seed) % _MODULUS or 1


def _powers(count):
    """``16807^k mod (2^31 - 1)`` for k = 1..count (host ints: ``count`` is static)."""
    powers, value = [], 1
    for _ in range(count):
        value = value * _MULTIPLIER % _MODULUS
        powers.append(value)
    return np.array(powers, np.int64)


def uniforms(state, count):
    """``count`` doubles of the stream at ``state`` (an int64 scalar) and the advanced state."""
    outputs = (state.astype(jnp.int64) * jnp.asarray(_powers(2 * count))) % _MODULUS
    low, high = (outputs[0::2] - 1).astype(jnp.float64), (outputs[1::2] - 1).astype(jnp.float64)
    value = (low + high * _RANGE) / (_RANGE * _RANGE)
    value = jnp.minimum(value, np.nextafter(1.0, 0.0))
    return value, outputs[-1]


def draw(logits, state, num_sample):
    """(batch, num_sample) int64 indices for (batch, classes) ``logits``, and the advanced state."""
    value, new_state = uniforms(state, num_sample)
    dtype = logits.dtype
    top = jnp.max(logits, axis=-1, keepdims=True)
    weights = jnp.exp((logits - top).astype(jnp.float32)).astype(dtype)
    cumulative = jnp.cumsum(weights, axis=-1, dtype=dtype)
    wanted = cumulative[:, -1:] * value.astype(jnp.float32).astype(dtype)[None, :]
    index = jnp.sum(cumulative[:, None, :] < wanted[:, :, None], axis=-1)
    return jnp.minimum(index, logits.shape[-1] - 1), new_state


def checked(logits, num_sample, seed):
    """Validated ``(logits array, num_sample, engine-ready seed)``; seed 0 draws one from the OS."""
    values = array_of("RandomCategorical", "logits", logits)
    return (values,) + checked_settings("RandomCategorical", values, num_sample, seed)


def checked_settings(op_name, values, num_sample, seed):
    """Validated ``(num_sample, engine-ready seed)`` for the ``logits`` array ``values``; seed 0 draws one from
    the OS."""
    if values.ndim != 2 or values.dtype.kind not in "fV":
        raise ValueError(f"For '{op_name}', 'logits' must be a 2-D float Tensor, but got shape "
                         f"{values.shape} and dtype {values.dtype}.")
    num_sample = static_int(op_name, "num_sample", num_sample)
    seed = static_int(op_name, "seed", seed)
    if num_sample <= 0:
        raise ValueError(f"For '{op_name}', 'num_sample' must be positive, but got {num_sample}.")
    if seed == 0:  # MindSpore seeds its engine from the OS for seed 0
        seed = int(np.random.SeedSequence().entropy % (2**63 - 1)) or 1
    return num_sample, seed


def output_dtype(dtype):
    if dtype not in (mstype.int16, mstype.int32, mstype.int64):
        raise TypeError(f"For 'RandomCategorical', 'dtype' must be int16, int32 or int64, but got {dtype!r}.")
    return mstype.to_numpy_dtype(dtype)


# MindSpore 2.10's draws for the samples (``(seed, num_sample)`` -> indices), recorded from its CPU kernel: the
# stream is MindSpore's own, so its answer is the reference. The same in Float16 (the sums round alike here).
_MINDSPORE_DRAWS = {(5, 4): [[4, 4, 2, 4]], (7, 3): [[2, 2, 2], [0, 0, 1]]}


def _recorded_draws(logits, num_sample, seed=0, dtype=mstype.int64):
    return np.array(_MINDSPORE_DRAWS[(seed, num_sample)])


def _categorical_samples(dtype):
    if dtype == "bfloat16":  # MindSpore's kernel takes Float16/32/64: no recorded draws
        return []
    return [Sample((np.array([[1.0, 2.0, 3.0, 4.0, 5.0]], dtype),), {"num_sample": 4, "seed": 5}),
            Sample((np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3]], dtype),),
                   {"num_sample": 3, "seed": 7, "dtype": mstype.int32})]


# eager: not compiled per call, so seed 0 takes a fresh seed from the OS on every call (a compiled kernel would
# keep its first); the stream is a function of the seed, not of the global random state (no ``random`` key).
@op(inputs="logits", dtypes=FLOAT, eager=True, method="random_categorical", grad_check=False,
    samples=_categorical_samples, reference=_recorded_draws)
def random_categorical(logits, num_sample, seed=0, dtype=mstype.int64):
    """``num_sample`` class indices per row of (batch, classes) ``logits``, from a fresh stream of ``seed``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.random_categorical(Tensor(np.array([[1., 2., 3., 4., 5.]], np.float32)), 4, 5)
        Tensor(shape=[1, 4], dtype=Int64, value=
        [[4, 4, 2, 4]])
    """
    target = output_dtype(dtype)
    num_sample, seed = checked_settings("random_categorical", logits, num_sample, seed)
    index, _ = draw(logits, jnp.asarray(engine_seed(seed), jnp.int64), num_sample)
    return index.astype(target)


def stream_draw(stream, row, signature_id, logits, seed, num_sample):
    """``RandomCategorical``'s draw from its per-signature streams: ``stream`` rows hold [engine state, signature
    id]; a signature seen before at ``row`` continues its state, a new one starts from ``seed``. Returns the
    (batch, num_sample) indices and the updated ``stream``."""
    state = jnp.where(stream[row, 1] == signature_id, stream[row, 0], engine_seed(seed))
    index, new_state = draw(logits, state, num_sample)
    return index, stream.at[row].set(jnp.stack([new_state, jnp.asarray(signature_id, jnp.int64)]))


def stream_key(base_key, calls):
    """The key of call number ``calls`` of a seeded Primitive's own stream started from ``base_key``."""
    return jax.random.fold_in(jax.random.key(base_key), calls)


def weighted_row_draws(key, weights, num_samples):
    """``row_draws`` from non-negative (unnormalised) row ``weights`` rather than logits."""
    return row_draws(key, jnp.log(weights.astype(np.float32)), num_samples)


def row_draws(key, logits, num_samples):
    """(..., num_samples) class indices, one independent categorical draw per row of ``logits`` (..., C).

    Under ``vmap`` with an unmapped key, the mapped rows are drawn as one batch with that key, so
    mapping a sampler over rows gives exactly what the batched call gives (MindSpore's vmap rule).
    """
    return _row_sampler(num_samples)(key, logits)


@functools.lru_cache(maxsize=None)
def _row_sampler(num_samples):
    def draw(key, logits):
        rows = logits.reshape(-1, logits.shape[-1])
        draws = jax.random.categorical(key, rows, axis=-1, shape=(num_samples, rows.shape[0]))
        return draws.T.reshape(logits.shape[:-1] + (num_samples,))

    sample = jax.custom_batching.custom_vmap(draw)

    @sample.def_vmap
    def batched(axis_size, in_batched, key, logits):
        key_batched, logits_batched = in_batched
        if key_batched:  # one key per mapped item: each item draws on its own
            logits = logits if logits_batched else jnp.broadcast_to(logits, (axis_size,) + logits.shape)
            return jax.vmap(draw)(key, logits), True
        return sample(key, logits), logits_batched

    return sample
