"""The ``seed`` argument of the random ops: MindSpore's checks of it, and how any Python int folds into a key.

Each random op checks its ``seed`` before it draws, with the error type MindSpore raises (the functional
random ops check it as a non-negative int: a bool is refused as a TypeError, a negative int as a ValueError);
a few ops have rules of their own (``bernoulli`` and ``randperm`` also take -1, the candidate samplers word
their errors as their Primitives do). A seed that passes folds into the key whatever its size: MindSpore
takes ``2**40`` as a seed, and ``jax.random.fold_in`` takes 32 bits at a time.

Example:
    >>> from sporax.ops.random_seeds import check_seed
    >>> check_seed("shuffle", -3)
    Traceback (most recent call last):
    ...
    ValueError: For 'shuffle', the 'seed' must be int and must >= 0, but got '-3' with type 'int'.
"""
import numbers

import jax

from sporax.core.tensor import Tensor

_WORD = 0xFFFFFFFF


def fold_seed(key, seed):
    """``key`` with the int ``seed`` folded in: its low 32 bits, then its high bits when it has any (so the
    seeds below ``2**32`` fold as one word)."""
    key = jax.random.fold_in(key, seed & _WORD)
    high = (seed >> 32) & _WORD
    return jax.random.fold_in(key, high) if high else key


def _non_negative_int(op_name, seed):
    # MindSpore's functional random ops (``shuffle``, ``normal``, ``rand`` ...): a non-negative int.
    if isinstance(seed, bool):
        raise TypeError(f"For '{op_name}', the 'seed' must be int and must >= 0, but got '{seed}' with type 'bool'.")
    if not isinstance(seed, numbers.Integral):
        raise TypeError(f"For '{op_name}', the 'seed' must be int, but got '{type(seed).__name__}'")
    if seed < 0:
        raise ValueError(f"For '{op_name}', the 'seed' must be int and must >= 0, but got '{seed}' with type "
                         f"'{type(seed).__name__}'.")


def _bernoulli(op_name, seed):
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"For '{op_name}', the type of 'seed' must be 'int', but got '{type(seed).__name__}'.")
    if seed < -1:
        raise ValueError(f"For '{op_name}', the 'seed' must be -1 or a non-negative integer, but got {seed}.")


def _randperm(op_name, seed):
    # MindSpore checks it as the RandpermV2 Primitive's input, which may also be a Tensor.
    if isinstance(seed, Tensor):
        return
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"For 'RandpermV2' ({op_name}), the type of 'seed' should be one of '[Tensor, int]', "
                        f"but got {type(seed)}.")
    if seed < -1:
        raise ValueError(f"For 'RandpermV2' ({op_name}), the input 'seed' must be greater than 0 or equal to 0 "
                         f"or -1, but got data: {seed}.")


def _sampler(primitive, below_zero):
    def check(op_name, seed):
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"For '{primitive}' ({op_name}), the type of 'seed' should be 'int', but got type "
                            f"'{type(seed).__name__}'.")
        if seed < 0:
            raise ValueError(f"For '{primitive}' ({op_name}), {below_zero}, but got {seed}.")
    return check


def _int_or_tensor(op_name, seed):
    # ``multinomial_with_replacement`` takes any int (a negative one too) or an Int Tensor.
    if not isinstance(seed, (numbers.Integral, Tensor)):
        raise TypeError(f"For '{op_name}', the input[seed] must be int, but got {type(seed)}.")


def _unchecked(op_name, seed):
    # The internal entries behind Primitives (``TruncatedNormal`` ...) whose seeds the Primitives checked.
    del op_name, seed


_RULES = {
    "bernoulli": _bernoulli,
    "randperm": _randperm,
    "uniform_candidate_sampler": _sampler("UniformCandidateSampler", "the value of seed should be >= : 0"),
    "log_uniform_candidate_sampler": _sampler("LogUniformCandidateSampler", "the argument 'seed' must >= 0"),
    "multinomial_with_replacement": _int_or_tensor,
    "truncated_normal": _unchecked,
    "parameterized_truncated_normal": _unchecked,
    "poisson": _unchecked,
    "sample_distorted_bounding_box_v2": _unchecked,
}


def check_seed(op_name, seed):
    """Raise MindSpore's error for a ``seed`` that the random op ``op_name`` refuses; None (no seed) passes.

    Args:
        op_name (str): the op's name in the op table (``"shuffle"``).
        seed: the value of the op's ``seed`` argument.
    """
    if seed is not None:
        _RULES.get(op_name, _non_negative_int)(op_name, seed)
