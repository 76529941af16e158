"""Candidate-sampling Primitives and functions: ``UniformCandidateSampler``/``uniform_candidate_sampler``,
``LogUniformCandidateSampler``/``log_uniform_candidate_sampler`` and ``ComputeAccidentalHits`` (the sampled
candidates that hit a row's true classes).

Like ``random_ops`` the samplers draw keys from the global random state (``set_seed`` repeats a run) with
``seed`` folded in. They reject duplicates on the device in a ``while_loop`` (their output size is fixed but the
number of draws is not), so they compile under GRAPH mode, ``jit`` and ``vmap``.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.UniformCandidateSampler(1, 3, True, 5)(Tensor(np.array([[1], [3]], np.int32)))[0].shape
    (3,)
"""
import math

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.ops import functional
from sporax.ops.functional import random as random_functions
from sporax.ops.op_table import ANY, Distribution, Sample, op
from sporax.ops.operations.random_ops import _RandomPrimitive
from sporax.ops.primitive import Primitive, prim_attr_register


def _candidates(op_name, probability, true_classes, num_true, num_sampled, unique, range_max, key,
                remove_accidental_hits=False):
    """TensorFlow's candidate sampling: ``(sampled, true_expected_count, sampled_expected_count)``, drawn on the
    device (one algorithm eagerly and under a trace, so a seed repeats it in both): duplicates are rejected in
    a ``while_loop`` whose number of draws is a traced count, the output size staying fixed.

    With ``unique`` and ``remove_accidental_hits`` the true classes are rejected too (each rejected draw counts
    as a try), as MindSpore 2.10's UniformCandidateSampler does when enough other classes remain to sample."""
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise ValueError(f"For '{op_name}', 'true_classes' must be (batch, num_true={num_true}), but got shape "
                         f"{tuple(true_classes.shape)}.")
    if unique and num_sampled > range_max:
        raise ValueError(f"For '{op_name}', 'num_sampled' must be at most 'range_max' when 'unique' is True.")
    weights = jnp.asarray(probability(np.arange(range_max, dtype=np.float64)), jnp.float32)
    logits = jnp.log(weights)
    if unique:
        def draw(state):
            key, sampled, seen, count, tries = state
            key, subkey = jax.random.split(key)
            candidate = jax.random.categorical(subkey, logits).astype(jnp.int32)
            new = ~seen[candidate]
            sampled = jnp.where(new, sampled.at[count].set(candidate), sampled)
            return key, sampled, seen.at[candidate].set(True), count + new.astype(jnp.int32), tries + 1

        seen = jnp.zeros(range_max, bool)
        if remove_accidental_hits:
            truth = seen.at[true_classes.reshape(-1)].set(True, mode="drop")
            seen = jnp.where(range_max - jnp.sum(truth) >= num_sampled, truth, seen)
        start = (key, jnp.zeros(num_sampled, jnp.int32), seen, jnp.int32(0), jnp.int32(0))
        _, sampled, _, _, tries = jax.lax.while_loop(lambda state: state[3] < num_sampled, draw, start)

        def expected(p):
            return -jnp.expm1(tries.astype(jnp.float32) * jnp.log1p(-p))
    else:
        sampled = jax.random.categorical(key, logits, shape=(num_sampled,)).astype(jnp.int32)

        def expected(p):
            return num_sampled * p
    true_expected = expected(weights[jnp.clip(true_classes, 0, range_max - 1)]).astype(jnp.float32)
    sampled_expected = expected(weights[sampled]).astype(jnp.float32)
    return sampled.astype(jnp.int64 if true_classes.dtype == jnp.int64 else jnp.int32), true_expected, sampled_expected


def _sampler_samples(dtype):
    """Two rows of one true class each; 6 candidates of 20 classes, unique and not."""
    if dtype != "float32":  # integer classes: one run
        return []
    classes = np.array([[1], [7]], np.int32)
    return [Sample((classes,), {"num_true": 1, "num_sampled": 6, "unique": True, "range_max": 20}),
            Sample((classes,), {"num_true": 1, "num_sampled": 6, "unique": False, "range_max": 20})]


def _sampler_reference(probability):
    """The Distribution of a sampler's three outputs: candidates in [0, range_max), expected counts in
    (0, num_sampled] (without replacement: ``1 - (1 - p)^tries``, which only the draw knows)."""

    def reference(true_classes, num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False):
        classes = np.int64 if true_classes.dtype == np.int64 else np.int32
        sampled_only = None if unique else num_sampled * probability(range_max)(np.arange(range_max))
        true_expected = None if unique else num_sampled * probability(range_max)(true_classes)
        return (Distribution((num_sampled,), np.dtype(classes).name, low=0, high=range_max - 1),
                Distribution(true_classes.shape, "float32", low=0 if unique else true_expected - 1e-6,
                             high=num_sampled if unique else true_expected + 1e-6),
                Distribution((num_sampled,), "float32", low=0,
                             high=num_sampled if unique else sampled_only.max() + 1e-6))

    return reference


def _uniform(range_max):
    return lambda k: np.full(np.shape(k), 1.0 / range_max)


@op(inputs="true_classes", dtypes=ANY, random=random_functions._key, grad_check=False, samples=_sampler_samples,
    reference=_sampler_reference(_uniform))
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False, *, key):
    """Sample ``num_sampled`` classes uniformly from [0, range_max): ``(sampled_candidates, true_expected_count,
    sampled_expected_count)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.uniform_candidate_sampler(Tensor(np.array([[1], [3]], np.int32)), 1, 3, True, 5)[0].shape
        (3,)
    """
    return _candidates("uniform_candidate_sampler", _uniform(range_max), true_classes, num_true, num_sampled, unique,
                       range_max, key, remove_accidental_hits)


def _log_uniform(range_max):
    return lambda k: (np.log(k + 2) - np.log(k + 1)) / math.log(range_max + 1)


@op(inputs="true_classes", dtypes=ANY, random=random_functions._key, grad_check=False, samples=_sampler_samples,
    reference=_sampler_reference(_log_uniform))
def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0, *, key):
    """Sample classes with the Zipfian probability ``(log(k + 2) - log(k + 1)) / log(range_max + 1)``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.log_uniform_candidate_sampler(Tensor(np.array([[1], [3]], np.int32)), 1, 3, True, 5)[0].shape
        (3,)
    """
    return _candidates("log_uniform_candidate_sampler", _log_uniform(range_max), true_classes, num_true, num_sampled,
                       unique, range_max, key)


class _SeededSampler(Primitive):
    """A sampler Primitive whose non-zero ``seed`` starts its own stream, as MindSpore's kernels do: a new
    instance with the same seed repeats the draws (each call advances them); seed 0 draws from the global
    random state."""
    _key = _RandomPrimitive._key

    def _start(self, seed, args):
        self.args = args
        self.seed, self.seed2 = seed, 0
        _RandomPrimitive._start_stream(self)

    def _draw(self, function, true_classes):
        if self._calls is None:
            return function(true_classes, *self.args)
        return function.entry.sample(self._key(), true_classes, *self.args)


class UniformCandidateSampler(_SeededSampler):
    """``ops.uniform_candidate_sampler`` as a Primitive.

    Inputs:
        - **true_classes** (Tensor[int]) - (batch, num_true).
    """

    @prim_attr_register
    def __init__(self, num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False):
        self._start(seed, (num_true, num_sampled, unique, range_max, seed, remove_accidental_hits))

    def __call__(self, true_classes):
        return self._draw(uniform_candidate_sampler, true_classes)


class LogUniformCandidateSampler(_SeededSampler):
    """``ops.log_uniform_candidate_sampler`` as a Primitive.

    Inputs:
        - **true_classes** (Tensor[int]) - (batch, num_true).
    """

    @prim_attr_register
    def __init__(self, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
        self._start(seed, (num_true, num_sampled, unique, range_max, seed))

    def __call__(self, true_classes):
        return self._draw(log_uniform_candidate_sampler, true_classes)


def _accidental_hits_reference(true_classes, sampled_candidates, num_true=1):
    hits = sorted((row, position) for position, candidate in enumerate(np.asarray(sampled_candidates).tolist())
                  for row, truth in enumerate(np.asarray(true_classes).tolist()) if candidate in truth)
    rows = np.array([row for row, _ in hits], np.int32)
    return rows, np.array([position for _, position in hits], np.int32)


# The number of hits depends on the values: an ``eager`` entry, read on the host.
@op(inputs=("true_classes", "sampled_candidates"), dtypes=ANY, eager=True, grad_check=False,
    reference=_accidental_hits_reference,
    samples=lambda dtype: [Sample((np.array([[1, 2], [0, 4], [3, 3]], np.int64), np.array([0, 1, 2, 3, 4], np.int64)),
                                  {"num_true": 2})])
def compute_accidental_hits(true_classes, sampled_candidates, num_true=1):
    """``ComputeAccidentalHits``' hits: the sampled candidates that equal one of a row's true classes, as
    ``(indices, ids)``: each hit's row and its candidate position (Int32, ordered by row then position)."""
    truth, sampled = np.asarray(true_classes), np.asarray(sampled_candidates)
    if truth.ndim != 2 or truth.shape[1] != num_true or sampled.ndim != 1:
        raise ValueError(f"For 'ComputeAccidentalHits', 'true_classes' must be (batch, {num_true}) and "
                         f"'sampled_candidates' 1-D, but got {truth.shape} and {sampled.shape}.")
    rows, ids = np.nonzero((truth[:, :, None] == sampled[None, None, :]).any(axis=1))  # row-major: by row, then id
    return jnp.asarray(rows.astype(np.int32)), jnp.asarray(ids.astype(np.int32))


class ComputeAccidentalHits(Primitive):
    """The sampled candidates that equal one of a row's true classes: ``(indices, ids, weights)`` with the
    row, the candidate position and the weight -FLT_MAX of each hit.

    Args:
        num_true (int): the number of true classes per row. Default: 1.
    """

    @prim_attr_register
    def __init__(self, num_true=1):
        self.num_true = num_true

    def __call__(self, true_classes, sampled_candidates):
        rows, ids = compute_accidental_hits(true_classes, sampled_candidates, self.num_true)
        # each hit's logit weight: -FLT_MAX, Float32
        return rows, ids, functional.full(rows.shape, float(np.finfo(np.float32).min), dtype=mstype.float32)
