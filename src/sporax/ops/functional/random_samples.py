"""Samples and references of the random ops' op-table entries (``sporax.ops.functional.random``,
``random_distributions`` and ``dropouts``).

A random entry's sample lists the op's leading arguments positionally (NumPy arrays become Tensors,
shapes and numbers stay as they are) and the rest by keyword; its reference returns the
``Distribution`` the draws must follow: output shape and dtype, each element's mean and standard
deviation, bounds, or the values a permutation permutes. Draws are large enough (2000 elements) for
the op test table to check the moments; every sample is Float32-only (the ops take shapes, not data).

Example:
    >>> from sporax.ops.functional.random_samples import normal_reference
    >>> normal_reference((2, 3), 1.0, 2.0).shape
    (2, 3)
"""
import numpy as np

from sporax.ops.op_table import Distribution, Sample

SHAPE = (40, 50)


def _float32(*samples):
    """A maker of ``samples`` for Float32 alone."""
    return lambda dtype: list(samples) if dtype == "float32" else []


def _ones(shape, dtype=np.float32):
    return np.ones(shape, dtype)


def _dtype_name(dtype, default):
    return default if dtype is None else np.dtype(str(dtype).lower().replace("mindspore.", "")).name


def shaped():
    return _float32(Sample((SHAPE,)), Sample((SHAPE,), {"seed": 3}))


normal = _float32(Sample((SHAPE, 1.0, 2.0)),
                  Sample(((40, 50), np.linspace(-1, 1, 50).astype(np.float32), np.full((50,), 0.5, np.float32)),
                         {"seed": 5}),
                  Sample((SHAPE, np.zeros((), np.float64), np.full((), 0.5, np.float32))))


def normal_reference(shape, mean, stddev, seed=None):
    out = np.broadcast_shapes(shape, np.shape(mean), np.shape(stddev))
    dtypes = [array.dtype for array in (mean, stddev) if isinstance(array, np.ndarray)]
    dtype = np.result_type(*dtypes) if dtypes else np.dtype(np.float32)
    return Distribution(out, dtype.name if dtype.kind == "f" else "float32", mean=mean, std=stddev)


def _like_dtype(size):
    """The dtype of a ``*_like`` op's input, else Float32."""
    return size[0].dtype.name if len(size) == 1 and isinstance(size[0], np.ndarray) else "float32"


def standard_normal_reference(*size, seed=None, dtype=None, **_):
    return Distribution(_shape_of(size), _dtype_name(dtype, _like_dtype(size)), mean=0.0, std=1.0)


def standard_laplace_reference(shape, seed=None):
    return Distribution(tuple(shape), "float32", mean=0.0, std=np.sqrt(2.0))


def _shape_of(size):
    """``(2, 3)`` from ``size`` given as ``(2, 3)``, ``((2, 3),)`` or a like-input array."""
    if len(size) == 1 and isinstance(size[0], np.ndarray):
        return size[0].shape
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], tuple) else tuple(size)


uniform = _float32(Sample((SHAPE, np.full((), -1.0, np.float32), np.full((), 3.0, np.float32))),
                   Sample((SHAPE, np.zeros((), np.int32), np.full((), 10, np.int32)), {"dtype": "int32"}))


def uniform_reference(shape, minval, maxval, seed=None, dtype="float32"):
    low, high = float(minval), float(maxval)
    if str(dtype).endswith("int32"):
        return Distribution(tuple(shape), "int32", mean=(low + high - 1) / 2,
                            std=np.sqrt(((high - low) ** 2 - 1) / 12), low=low, high=high - 1)
    return Distribution(tuple(shape), "float32", mean=(low + high) / 2, std=(high - low) / np.sqrt(12),
                        low=low, high=high)


sized = _float32(Sample((40, 50)), Sample((SHAPE,), {"seed": 4}), Sample((SHAPE,), {"dtype": "float16"}))
like = _float32(Sample((np.zeros(SHAPE, np.float32),)), Sample((np.zeros(SHAPE, np.float16),), {"seed": 2}),
                Sample((np.zeros(SHAPE, np.float32),), {"dtype": "float64"}))


def uniform_unit_reference(*size, seed=None, dtype=None, **_):
    return Distribution(_shape_of(size), _dtype_name(dtype, _like_dtype(size)), mean=0.5, std=12 ** -0.5, low=0.0, high=1.0)


randint = _float32(Sample((2, 6, SHAPE)), Sample((-3, 3, SHAPE), {"dtype": "int32", "seed": 1}))


def randint_reference(low, high, size, seed=None, dtype=None):
    return Distribution(tuple(size), _dtype_name(dtype, "int64"), mean=(low + high - 1) / 2,
                        std=np.sqrt(((high - low) ** 2 - 1) / 12), low=low, high=high - 1)


randint_like = _float32(Sample((np.zeros(SHAPE, np.int32), 0, 2)), Sample((np.zeros(SHAPE, np.int32), 5, 9),
                                                                          {"dtype": "int64"}))


def randint_like_reference(input, low, high, seed=None, dtype=None):
    return randint_reference(low, high, input.shape, dtype=dtype or input.dtype.name)


randperm = _float32(Sample((10,)), Sample((7,), {"dtype": "int32"}))


def randperm_reference(n, seed=0, offset=0, dtype=None):
    return Distribution((n,), _dtype_name(dtype, "int64"), values=np.arange(n))


shuffle = _float32(Sample((np.arange(12, dtype=np.float32),)), Sample((np.arange(12).reshape(6, 2),), {"seed": 2}))


def shuffle_reference(x, seed=None):
    return Distribution(x.shape, "float32" if x.dtype.kind == "f" else x.dtype.name, values=x)


_PROBABILITIES = np.broadcast_to(np.linspace(0.1, 0.9, 50, dtype=np.float32), SHAPE).copy()
# the last: probabilities drawn as their own input (``mint.bernoulli(input)``)
bernoulli = _float32(Sample((np.zeros(SHAPE, np.float32), 0.25)),
                     Sample((np.zeros(SHAPE, np.int32), np.linspace(0.1, 0.9, 50).astype(np.float32)), {"seed": 4}),
                     Sample((_PROBABILITIES, _PROBABILITIES)))


def bernoulli_reference(input, p=0.5, seed=None):
    p = np.asarray(p, np.float64)
    return Distribution(input.shape, "float32" if input.dtype.kind == "f" else input.dtype.name, mean=p,
                        std=np.sqrt(p * (1 - p)), low=0, high=1)


_WEIGHTS = np.array([[0.2, 0.3, 0.5], [0.5, 0.0, 0.5]], np.float32)
multinomial = _float32(Sample((_WEIGHTS, 1000)), Sample((_WEIGHTS[0] * 4, 3), {"replacement": False}))


def multinomial_reference(input, num_samples, replacement=True, seed=None):
    rows = np.atleast_2d(input) / np.atleast_2d(input).sum(-1, keepdims=True)
    shape = input.shape[:-1] + (num_samples,)
    if not replacement:  # each class at most once: a permutation of the classes
        return Distribution(shape, "int32", values=np.arange(num_samples))
    classes = np.arange(rows.shape[-1])
    mean = (rows * classes).sum(-1, keepdims=True)
    std = np.sqrt((rows * classes ** 2).sum(-1, keepdims=True) - mean ** 2)
    return Distribution(shape, "int32", mean=mean, std=std, low=0, high=rows.shape[-1] - 1)


laplace = _float32(Sample((SHAPE, np.ones((), np.float32), np.full((), 0.5, np.float32))),
                   Sample(((40, 50), np.linspace(-1, 1, 50).astype(np.float32), np.full((50,), 2.0, np.float32)),
                          {"seed": 3}))


def laplace_reference(shape, mean, lambda_param, seed=None):
    out = np.broadcast_shapes(shape, np.shape(mean), np.shape(lambda_param))
    return Distribution(out, "float32", mean=mean, std=np.sqrt(2.0) * np.asarray(lambda_param))


random_gamma = _float32(Sample((np.array([1000], np.int32), np.array([4.0, 1.0], np.float32)), {"seed": 6}))


def random_gamma_reference(shape, alpha, seed=None):
    return Distribution(tuple(shape) + np.shape(alpha), "float32", mean=alpha, std=np.sqrt(alpha), low=0.0)


random_poisson = _float32(Sample((np.array([1000], np.int32), np.array([9.0, 2.0], np.float32)), {"dtype": "int32"}))


def random_poisson_reference(shape, rate, seed=None, dtype=None):
    return Distribution(tuple(shape) + np.shape(rate), _dtype_name(dtype, "float32"), mean=rate, std=np.sqrt(rate),
                        low=0)


gamma = _float32(Sample(((1000, 2), np.array([2.0, 5.0], np.float32), np.array([1.5], np.float32))))


def gamma_reference(shape, alpha, beta, seed=None):
    out = np.broadcast_shapes(shape, np.shape(alpha), np.shape(beta))
    return Distribution(out, "float32", mean=alpha / beta, std=np.sqrt(alpha) / beta, low=0.0)


_LOGITS = np.log(np.array([[0.1, 0.6, 0.3]], np.float32)).repeat(1000, 0)
gumbel_softmax = _float32(Sample((_LOGITS,), {"hard": True}), Sample((_LOGITS,), {"tau": 0.5}))


def gumbel_softmax_reference(logits, tau=1.0, hard=False, dim=-1):
    if not hard:  # soft samples: probabilities (their mean has no closed form)
        return Distribution(logits.shape, "float32", low=0.0, high=1.0)
    p = np.exp(logits) / np.exp(logits).sum(dim, keepdims=True)
    return Distribution(logits.shape, "float32", mean=p, std=np.sqrt(p * (1 - p)), low=0.0, high=1.0)


_FLAGS = np.random.default_rng(0).uniform(size=(40, 50)) < 0.3
choice_with_mask = _float32(Sample((_FLAGS, 256)), Sample((_FLAGS[:2, :5], 8), {"seed": 2}))


def choice_with_mask_reference(input_x, count=256, seed=None):
    """Coordinates within the input's shape; the mask marks ``min(count, True elements)`` rows."""
    chosen = min(count, int(input_x.sum()))
    mask = np.arange(count) < chosen
    return (Distribution((count, input_x.ndim), "int32", low=0, high=max(input_x.shape) - 1),
            Distribution((count,), "bool", values=mask))


truncated_normal = _float32(Sample((SHAPE,)), Sample((SHAPE, "float16"), {"seed": 2}))


def truncated_normal_reference(shape, dtype="float32", seed=None):
    # N(0, 1) cut to [-2, 2]: mean 0, variance 1 - 4 phi(2) / (Phi(2) - Phi(-2))
    density = np.exp(-2.0) / np.sqrt(2 * np.pi)
    mass = 0.9544997361036416
    return Distribution(tuple(shape), _dtype_name(dtype, "float32"), mean=0.0, std=np.sqrt(1 - 4 * density / mass),
                        low=-2.0, high=2.0)


parameterized_truncated_normal = _float32(Sample(((2, 2000), np.array([0.0, 10.0], np.float32),
                                                  np.array([1.0, 2.0], np.float32), np.array([-5.0, 9.0], np.float32),
                                                  np.array([5.0, 10.0], np.float32))))


def parameterized_truncated_normal_reference(shape, mean, stdevs, min, max, seed=None):
    """Bounds per row (a moment check would need the truncated moments of each row)."""
    low = np.broadcast_to(min.reshape(-1), (shape[0],)).reshape(-1, 1)
    high = np.broadcast_to(max.reshape(-1), (shape[0],)).reshape(-1, 1)
    return Distribution(tuple(shape), mean.dtype.name, low=low, high=high)


non_deterministic_ints = _float32(Sample((SHAPE, "int32")), Sample((SHAPE,)))


def non_deterministic_ints_reference(shape, dtype="int64"):
    info = np.iinfo(np.dtype(_dtype_name(dtype, "int64")))
    width = float(info.max) - float(info.min) + 1
    return Distribution(tuple(shape), info.dtype.name, mean=(float(info.max) + float(info.min)) / 2,
                        std=width / np.sqrt(12), low=info.min, high=info.max)


def dropout(rank):
    """Positive inputs of ``rank`` axes whose channels (axis 1) are many and their spatial axes 1: the draws of
    the element-wise and the channel-wise dropouts are then equally many independent ones."""
    shape = (40, 50) + (1,) * (rank - 2)
    x = np.random.default_rng(rank).uniform(0.5, 2.0, shape).astype(np.float32)
    return _float32(Sample((x,)), Sample((x,), {"p": 0.2}))


def dropout_reference(input, p=0.5, training=True, seed=None):
    """Each element is 0 (probability ``p``) or ``input / (1 - p)``: mean ``input``, deviation
    ``input * sqrt(p / (1 - p))``."""
    input = np.asarray(input, np.float64)
    return Distribution(input.shape, "float32", mean=input, std=input * np.sqrt(p / (1 - p)), low=0,
                        high=input / (1 - p) * (1 + 1e-6))  # the kernel scales in Float32


poisson = _float32(Sample(((1000,), np.array([9.0, 2.0], np.float32))))


def poisson_reference(shape, mean, seed=None):
    return Distribution(tuple(shape) + np.shape(mean), "float32", mean=mean, std=np.sqrt(mean), low=0)


multinomial_with_replacement = _float32(
    Sample((_WEIGHTS, 0, 0, 1000), {"replacement": True}), Sample((_WEIGHTS[0] * 4, 3, 2, 3)))


def multinomial_with_replacement_reference(x, seed, offset, numsamples, replacement=False):
    distribution = multinomial_reference(x, numsamples, replacement)
    return Distribution(distribution.shape, "int64", mean=distribution.mean, std=distribution.std,
                        low=distribution.low, high=distribution.high, values=distribution.values)
