"""Initializers (``mindspore.common.initializer``): the distributions that fill new weights.

Every random initializer draws MindSpore's own values: one seed from NumPy's global stream per
array, expanded by MindSpore's Philox stream and distributions (``sporax.core.host_random``), so
``set_seed(s)`` (which seeds NumPy) or ``np.random.seed(s)`` gives MindSpore's initial weights.
Drawing on the host with NumPy (not ``jax.random``) also matters for speed: a ``jax.random``
draw compiles an XLA program for every new shape (1-2 s each). ``initializer(init, shape, dtype)`` returns a lazily
initialised Tensor that is filled on first use; ``make_array`` fills one now.

Example:
    >>> from sporax.core.initializer import initializer, XavierUniform
    >>> initializer(XavierUniform(), (3, 4)).shape
    (3, 4)
"""
import math
import numbers

import jax
import numpy as np

from sporax.core import dtype as mstype
from sporax.core import host_random
from sporax.core.tensor import Tensor


def _calculate_fan_in_and_fan_out(shape):
    """MindSpore's fans: a (out, in) matrix, or a conv weight (out, in, *kernel) times its receptive field."""
    dimensions = len(shape)
    if dimensions < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 dimensions, "
                         f"but got dimensions {dimensions}.")
    receptive_field = int(np.prod(shape[2:], dtype=np.int64)) if dimensions > 2 else 1
    return shape[1] * receptive_field, shape[0] * receptive_field


def _calculate_correct_fan(shape, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == "fan_in" else fan_out


def _calculate_gain(nonlinearity, param=None):
    """The gain recommended for ``nonlinearity`` (as ``torch.nn.init.calculate_gain``)."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, numbers.Real):
            raise ValueError(f"For 'HeUniform', the argument 'negative_slope' should be a number, but got {slope!r}.")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"For 'HeUniform', the argument 'nonlinearity' should be one of ['sigmoid', 'tanh', 'relu' "
                     f"or 'leaky_relu'], but got {nonlinearity}.")


def _uniform(shape, low, high):
    """U(``low``, ``high``) float32 samples from MindSpore's initializer stream (``host_random``)."""
    return host_random.uniform(host_random.initializer_seed(), shape, low, high)


def _normal(shape, mean, sigma):
    """N(``mean``, ``sigma``^2) float32 samples from MindSpore's initializer stream."""
    return host_random.normal(host_random.initializer_seed(), shape, mean, sigma)


def _truncated_normal(shape, lower, upper, mean, sigma):
    """N(``mean``, ``sigma``^2) float32 samples within the absolute bounds [``lower``, ``upper``]."""
    return host_random.truncated_normal(host_random.initializer_seed(), shape, lower, upper, mean, sigma)


class Initializer:
    """Base class of initializers.

    A subclass implements ``_generate(shape, np_dtype)`` returning a jax array, or (as in
    MindSpore) ``_initialize(arr)`` that fills the NumPy array ``arr`` in place.
    """

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self.shape = None
        self.dtype = None

    def _generate(self, shape, np_dtype):
        array = np.zeros(shape, np_dtype)
        self._initialize(array)
        return array

    def _initialize(self, arr):
        if type(self)._generate is Initializer._generate:
            raise NotImplementedError(f"{type(self).__name__}: an Initializer subclass must implement "
                                      "_initialize(self, arr), filling the NumPy array arr in place.")
        arr[...] = np.asarray(self._generate(arr.shape, arr.dtype))

    # Initializers that MindSpore applies with ``arr.fill(value)``: on a Tensor or Parameter that fill is out of
    # place, so the call changes nothing and returns None (mindocr's heads call ``Constant(0.0)(m.bias)``).
    _fills = False

    def __call__(self, arr):
        """Fill the NumPy array ``arr`` in place and return it (Zero, One and Constant leave a Tensor as it is)."""
        if self._fills and isinstance(arr, Tensor):
            return None
        if not isinstance(arr, np.ndarray):
            raise TypeError(f"{type(self).__name__}: the input should be a numpy.ndarray, but got {type(arr)}.")
        self._initialize(arr)
        return arr


class Zero(Initializer):
    """Fill with zeros."""

    _fills = True

    def _generate(self, shape, np_dtype):
        return np.zeros(shape, np_dtype)


class One(Initializer):
    """Fill with ones."""

    _fills = True

    def _generate(self, shape, np_dtype):
        return np.ones(shape, np_dtype)


class Constant(Initializer):
    """Fill with ``value``."""

    _fills = True

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _generate(self, shape, np_dtype):
        return np.full(shape, self.value).astype(np_dtype)


class Normal(Initializer):
    """Draw from N(``mean``, ``sigma``^2)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _generate(self, shape, np_dtype):
        return _normal(shape, self.mean, self.sigma).astype(np_dtype)


class Uniform(Initializer):
    """Draw from U(-``scale``, ``scale``)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _generate(self, shape, np_dtype):
        return _uniform(shape, -self.scale, self.scale).astype(np_dtype)


class TruncatedNormal(Initializer):
    """Draw from N(``mean``, ``sigma``^2) truncated to the absolute bounds [``a``, ``b``]."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _generate(self, shape, np_dtype):
        return _truncated_normal(shape, self.a, self.b, self.mean, self.sigma).astype(np_dtype)


class XavierUniform(Initializer):
    """Draw from U(-bound, bound), bound = ``gain`` * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _generate(self, shape, np_dtype):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return _uniform(shape, -bound, bound).astype(np_dtype)


class XavierNormal(Initializer):
    """Draw from N(0, std^2), std = ``gain`` * sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _generate(self, shape, np_dtype):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        return _normal(shape, 0.0, std).astype(np_dtype)


class HeUniform(Initializer):
    """Kaiming uniform: U(-bound, bound), bound = gain * sqrt(3 / fan)."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _bound_or_std(self, shape):
        fan = _calculate_correct_fan(shape, self.mode)
        return _calculate_gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)

    def _generate(self, shape, np_dtype):
        bound = math.sqrt(3.0) * self._bound_or_std(shape)
        return _uniform(shape, -bound, bound).astype(np_dtype)


class HeNormal(HeUniform):
    """Kaiming normal: N(0, std^2), std = gain / sqrt(fan)."""

    def _generate(self, shape, np_dtype):
        std = self._bound_or_std(shape)
        return _normal(shape, 0.0, std).astype(np_dtype)


class Identity(Initializer):
    """A 2-D identity matrix (ones on the main diagonal)."""

    def _generate(self, shape, np_dtype):
        if len(shape) != 2:
            raise ValueError("For Identity initializer, the dimension of the initialized tensor should be 2, "
                             f"but got {len(shape)}.")
        return np.eye(shape[0], shape[1], dtype=np_dtype)


class Dirac(Initializer):
    """A Dirac delta per output channel of a 3-, 4- or 5-D conv weight: convolution keeps the input."""

    def __init__(self, groups=1):
        super().__init__(groups=groups)
        self.groups = groups

    def _generate(self, shape, np_dtype):
        if len(shape) not in (3, 4, 5):
            raise ValueError("For Dirac initializer, only support to initialize tensor with dimension of 3, 4 "
                             f"or 5, but got {len(shape)}.")
        if shape[0] % self.groups != 0:
            raise ValueError("For Dirac initializer, the first dimension of the initialized tensor must be "
                             f"divisible by groups, but got first dimension {shape[0]}, groups {self.groups}.")
        out_per_group = shape[0] // self.groups
        array = np.zeros(shape, np_dtype)
        center = tuple(size // 2 for size in shape[2:])
        for group in range(self.groups):
            for channel in range(min(out_per_group, shape[1])):
                array[(group * out_per_group + channel, channel) + center] = 1
        return array


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix over (shape[0], prod(shape[1:])), scaled by ``gain``."""

    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _generate(self, shape, np_dtype):
        if len(shape) < 2:
            raise ValueError("For Orthogonal initializer, the dimension of the initialized tensor should be no "
                             f"less than 2, but got {len(shape)}.")
        rows, cols = shape[0], int(np.prod(shape[1:], dtype=np.int64))
        flat = _normal((rows, cols), 0.0, 1.0)
        if rows < cols:
            flat = flat.T
        q, r = np.linalg.qr(flat)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (self.gain * q).reshape(shape).astype(np_dtype)


class Sparse(Initializer):
    """A 2-D N(0, ``sigma``^2) matrix with a ``sparsity`` fraction of each column set to zero."""

    def __init__(self, sparsity, sigma=0.01):
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity, self.sigma = sparsity, sigma

    def _generate(self, shape, np_dtype):
        if len(shape) != 2:
            raise ValueError("For Sparse initializer, the dimension of the initialized tensor should be 2, "
                             f"but got {len(shape)}.")
        rows, cols = shape
        zeros_per_column = int(math.ceil(self.sparsity * rows))
        values = _normal(shape, 0.0, self.sigma)
        # As MindSpore: the zeroed rows of each column are a permutation prefix from NumPy's global stream.
        for column in range(cols):
            values[np.random.permutation(rows)[:zeros_per_column], column] = 0
        return values.astype(np_dtype)


class VarianceScaling(Initializer):
    """Scale the variance by ``scale`` / fan, drawing from a (truncated) normal or a uniform."""

    _TRUNCATED_STD = 0.87962566103423978  # std of N(0, 1) truncated to [-2, 2]

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal"):
        if scale <= 0.0:
            raise ValueError(f"For VarianceScaling initializer, the argument 'scale' must be positive, but got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError("For VarianceScaling initializer, the argument 'mode' must be fan_in, fan_out or "
                             f"fan_avg, but got {mode}.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError("For VarianceScaling initializer, the argument 'distribution' must be uniform, "
                             f"truncated_norm or untruncated_norm, but got {distribution}.")
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _generate(self, shape, np_dtype):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, fan)
        if self.distribution == "truncated_normal":
            # MindSpore truncates at the absolute bounds [-2, 2] (not at 2 standard deviations).
            sample = _truncated_normal(shape, -2.0, 2.0, 0.0, math.sqrt(scale) / self._TRUNCATED_STD)
        elif self.distribution == "untruncated_normal":
            sample = _normal(shape, 0.0, math.sqrt(scale))
        else:
            limit = math.sqrt(3.0 * scale)
            sample = _uniform(shape, -limit, limit)
        return sample.astype(np_dtype)


_INITIALIZER_ALIAS = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One,
    "normal": Normal, "uniform": Uniform, "truncatednormal": TruncatedNormal,
    "xavier_uniform": XavierUniform, "xavieruniform": XavierUniform,
    "xavier_normal": XavierNormal, "xaviernormal": XavierNormal,
    "he_uniform": HeUniform, "heuniform": HeUniform, "he_normal": HeNormal, "henormal": HeNormal,
    "identity": Identity, "dirac": Dirac, "orthogonal": Orthogonal, "sparse": Sparse,
    "variancescaling": VarianceScaling,
}


def _register(*aliases):
    """Class decorator that makes an Initializer subclass reachable by name, as MindSpore's is.

    Libraries define their own initializers this way (mindchemistry's e3 ``Uniform``): the class's
    lower-case name and each alias are added unless already taken, so built-in names keep their class.
    """
    def add(cls):
        for key in (cls.__name__.lower(),) + aliases:
            _INITIALIZER_ALIAS.setdefault(key, cls)
        return cls
    return add


def _assignment(arr, num):
    """Copy ``num`` (a number or array) into the NumPy array ``arr`` in place; a 0-d ``arr`` too."""
    arr[...] = num
    return arr


def _init_random_uniform(a, b, shape):
    """A float32 NumPy array of U(``a``, ``b``) from MindSpore's initializer stream (a library's ``_initialize``)."""
    return _uniform(tuple(shape), a, b)


def _init_random_normal(mean, sigma, shape):
    """A float32 NumPy array of N(``mean``, ``sigma``^2) from MindSpore's initializer stream."""
    if sigma < 0:
        raise ValueError(f"_init_random_normal: 'sigma' must be >= 0, got {sigma}.")
    return _normal(tuple(shape), mean, sigma)


def _init_truncated_normal(a, b, mean, sigma, shape):
    """A float32 NumPy array of N(``mean``, ``sigma``^2) within [``a``, ``b``] from MindSpore's initializer stream."""
    if sigma < 0:
        raise ValueError(f"_init_truncated_normal: 'sigma' must be >= 0, got {sigma}.")
    return _truncated_normal(tuple(shape), a, b, mean, sigma)


def _from_name(name):
    cls = _INITIALIZER_ALIAS.get(name.lower())
    if cls is None:
        raise ValueError(f"For 'initializer', the class corresponding to '{name}' was not found.")
    if cls is Sparse:
        raise ValueError("For 'initializer', 'sparse' needs its 'sparsity' argument: pass Sparse(sparsity=...).")
    return cls()


def _check_shape(shape):
    if isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (shape,)
    if isinstance(shape, Tensor):
        shape = tuple(int(v) for v in shape.asnumpy().reshape(-1))
    shape = tuple(shape)
    if any(isinstance(d, bool) or not isinstance(d, numbers.Integral) or d <= 0 for d in shape):
        raise ValueError("For 'initializer', the argument 'shape' is invalid, the value of 'shape' must be "
                         f"positive integer, but got {shape}")
    return tuple(int(d) for d in shape)


def make_array(init, shape, dtype):
    """Fill a new jax array of ``shape`` and MindSpore ``dtype`` by ``init`` now."""
    if isinstance(init, str):
        init = _from_name(init)
    np_dtype = mstype.to_numpy_dtype(dtype)
    shape = tuple(shape)
    # Values are made with NumPy and copied to the device once: no XLA program per shape
    # (device_put, because jnp.asarray compiles a small program per shape).
    if isinstance(init, Initializer):
        values = init._generate(shape, np_dtype)
        if isinstance(values, jax.Array):
            return values.astype(np_dtype)
        return jax.device_put(np.asarray(values).astype(np_dtype, copy=False))
    if isinstance(init, numbers.Number):
        return jax.device_put(np.full(shape, init).astype(np_dtype))
    raise TypeError(f"make_array: expected an Initializer, a name or a number, got {type(init).__name__}.")


def initializer(init, shape=None, dtype=mstype.float32):
    """Make a Tensor filled by ``init`` (``mindspore.common.initializer.initializer``).

    Args:
        init (Union[Tensor, str, Initializer, numbers.Number]): a Tensor (returned when its shape
            matches), an initializer name ('normal', 'ones', 'xavier_uniform', ...), an Initializer,
            or a number (every element).
        shape (Union[tuple, list, int]): the shape of the result.
        dtype (mindspore.dtype): the element type of the result. Default: float32.

    Returns:
        Tensor, initialised lazily (filled on first use) unless ``init`` is a Tensor.
    """
    if isinstance(init, Tensor):
        if shape is not None:
            expected = _check_shape(shape)
            if tuple(init.shape) != expected:
                raise ValueError("For 'initializer', the shape of the 'init' argument should be same as the "
                                 f"argument 'shape', but got the 'init' shape {list(init.shape)} and the "
                                 f"'shape' {list(expected)}.")
        return init
    if isinstance(init, bool) or not isinstance(init, (str, Initializer, numbers.Number)):
        raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', "
                        f"'string' or 'initializer', but got {type(init)}.")
    if shape is None:
        raise ValueError("For 'initializer', the argument 'shape' is needed when 'init' is not a Tensor.")
    shape = _check_shape(shape)
    dtype = mstype.normalize(dtype)
    if isinstance(init, str):
        init = _from_name(init)
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    return Tensor(shape=shape, dtype=dtype, init=init)
