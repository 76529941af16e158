"""``mindspore.nn.probability.distribution.Distribution``: the base Cell of the parametric distributions.

A subclass registers its parameters with ``_add_parameter`` (in order: they are also the trailing optional
arguments of every method) and defines some of ``_prob``/``_log_prob``/``_cdf``/``_log_cdf``/
``_survival_function``/``_log_survival``/``_mean``/``_mode``/``_sd``/``_var``/``_entropy``/``_kl_loss``/
``_cross_entropy``/``_sample``. The public methods derive what is missing as MindSpore 2.10 does (``prob``
from ``log_prob``, ``survival_function`` from ``cdf``, ``sd`` from ``var``...) and raise MindSpore's
NotImplementedError where nothing can be derived. Parameters given to a call must be Tensors (MindSpore's
TypeError otherwise); they replace the distribution's own for that call only, all broadcast to one shape.

Example:
    >>> import sporax as ms
    >>> from sporax.nn.probability.distribution import Exponential
    >>> float(Exponential(0.5).mean().asnumpy())
    2.0
"""
import numpy as np

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.nn.cell import Cell

FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)
_METHODS = ("prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival", "mean", "mode", "sd",
            "var", "entropy", "kl_loss", "cross_entropy", "sample", "get_dist_args", "get_dist_type")


def check_float_dtype(dtype, name):
    """MindSpore's TypeError for a continuous distribution of a non-float ``dtype``."""
    if dtype not in FLOAT_TYPES:
        raise TypeError(f"For '{name}', the 'dtype' should be one of [mindspore.float16, mindspore.float32, "
                        f"mindspore.float64, mindspore.bfloat16], but got '{dtype}'.")


def check_positive(tensor, name):
    """Construction-time ValueError when a parameter given as a value is not > 0."""
    if tensor is not None and not bool(np.all(tensor.asnumpy() > 0)):
        raise ValueError(f"{name} must be greater than zero.")


def check_not_scalar(value, name):
    """Gamma, Beta and Poisson refuse a Python scalar parameter (MindSpore's TypeError): pass a list."""
    if isinstance(value, (int, float)):
        raise TypeError(f"Input {name} can't be scalar")


class Distribution(Cell):
    """The base class of all distributions.

    Args:
        seed (int): the sampling seed, >= 0 (None: 0).
        dtype (mindspore.dtype): the type of the samples (and of the results, for continuous distributions).
        name (str): the distribution's name.
        param (dict): the constructor's arguments; its ``param_dict`` holds the distribution's parameters.

    Inputs (of ``construct``):
        - **name** (str) -- the method to call: 'prob', 'log_prob', 'cdf', ..., 'sample'.
        - **args** -- that method's arguments.

    Outputs:
        Tensor, the method's result.
    """

    def __init__(self, seed, dtype, name, param):
        super().__init__()
        if not isinstance(name, str):
            raise TypeError(f"For '{type(self).__name__}', the type of 'name' should be 'str', but got type "
                            f"'{type(name).__name__}'.")
        seed = 0 if seed is None else seed
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"For '{name}', the 'seed' must be int and must >= 0, but got '{seed}' with type "
                             f"'{type(seed).__name__}'.")
        self._name, self._seed, self._dtype = name, seed, dtype
        self._distribution_parameters = {key: value for key, value in param.items()
                                         if key != "self" and not key.startswith("_")}
        # Discrete distributions sample integers but compute in float32.
        self.parameter_type = dtype if dtype in FLOAT_TYPES else mstype.float32
        self.default_parameters, self.parameter_names = [], []
        values = list(self._distribution_parameters.get("param_dict", {}).values())
        self._is_scalar_batch = all(value is None or isinstance(value, (int, float)) for value in values)
        self._batch_shape = None
        if values and all(value is not None for value in values):
            shapes = [tuple(value.shape) if isinstance(value, Tensor) else np.shape(value) for value in values]
            self._batch_shape = tuple(np.broadcast_shapes(*shapes))

    @property
    def name(self):
        """The distribution's name."""
        return self._name

    @property
    def dtype(self):
        """The type of the samples."""
        return self._dtype

    @property
    def seed(self):
        """The sampling seed."""
        return self._seed

    @property
    def parameters(self):
        """The constructor's arguments."""
        return self._distribution_parameters

    @property
    def is_scalar_batch(self):
        """Whether every parameter was given as a Python scalar."""
        return self._is_scalar_batch

    @property
    def batch_shape(self):
        """The broadcast shape of the parameters given at construction (None if one is missing)."""
        return self._batch_shape

    @property
    def broadcast_shape(self):
        """The batch shape, as MindSpore names it too."""
        return self._batch_shape

    # --- parameters ---------------------------------------------------------------------------------------
    def _as_parameter(self, value):
        if isinstance(value, Tensor):
            return ops.cast(value, self.parameter_type)
        return Tensor(np.asarray(value, mstype.dtype_to_nptype(self.parameter_type)))

    def _add_parameter(self, value, name):
        """Register a parameter (None: to be given per call); returns it as a Tensor of the parameter type."""
        tensor = None if value is None else self._as_parameter(value)
        self.default_parameters.append(tensor)
        self.parameter_names.append(name)
        return tensor

    @staticmethod
    def _check_tensor(value, name):
        if not isinstance(value, Tensor):
            raise TypeError(f"For {name}, input type must be a Tensor or Parameter.")
        return value

    def _check_value(self, value, name):
        """``value`` must be a Tensor; it is computed with in the parameter type."""
        return ops.cast(self._check_tensor(value, name), self.parameter_type)

    def _check_param_type(self, *args):
        """The given parameters (Tensors) or the distribution's own, cast and broadcast to one shape."""
        out = []
        for arg, name, default in zip(args, self.parameter_names, self.default_parameters):
            if arg is not None:
                arg = ops.cast(self._check_tensor(arg, name), self.parameter_type)
            elif default is None:
                raise TypeError(f"the type {name} must be subclass of Tensor. It can not be None since it is not "
                                "specified during initialization.")
            else:
                arg = default
            out.append(arg)
        if len(out) == 1:
            return out[0]
        shape = tuple(np.broadcast_shapes(*(tuple(arg.shape) for arg in out)))
        return tuple(ops.broadcast_to(arg, shape) for arg in out)

    def _check_dist_name(self, dist):
        if dist != type(self).__name__:
            raise ValueError(f"Expected dist input is {type(self).__name__}, but got {dist}.")

    def get_dist_type(self, *args, **kwargs):
        """The distribution's kind, e.g. 'Exponential' (parameters given to the call do not change it)."""
        return type(self).__name__

    def get_dist_args(self, *args, **kwargs):
        """The parameters a call with ``args`` (or keyword ``kwargs``, by parameter name) would use (given or
        own)."""
        values = list(args) + [None] * (len(self.parameter_names) - len(args))
        for key, value in kwargs.items():
            if key not in self.parameter_names:
                raise TypeError(f"For '{self.name}', 'get_dist_args' got an unknown parameter {key!r}: expected one "
                                f"of {self.parameter_names}.")
            values[self.parameter_names.index(key)] = value
        params = self._check_param_type(*values)
        return params if isinstance(params, tuple) else (params,)

    # --- the public methods -------------------------------------------------------------------------------
    def _missing(self, method):
        raise NotImplementedError(f"{method} is not implemented for {self.name} distribution.")

    def _has(self, method):
        return hasattr(type(self), method)

    def _has_cdf_family(self):
        return any(self._has(method) for method in ("_cdf", "_log_cdf", "_survival_function", "_log_survival"))

    def log_prob(self, value, *args, **kwargs):
        """The log probability (density) of ``value``."""
        if self._has("_log_prob"):
            return self._log_prob(value, *args, **kwargs)
        if self._has("_prob"):
            return ops.log(self._prob(value, *args, **kwargs))
        return self._missing("log_prob")

    def prob(self, value, *args, **kwargs):
        """The probability (density) of ``value``."""
        if self._has("_prob"):
            return self._prob(value, *args, **kwargs)
        if self._has("_log_prob"):
            return ops.exp(self._log_prob(value, *args, **kwargs))
        return self._missing("prob")

    def cdf(self, value, *args, **kwargs):
        """``P(X <= value)``."""
        if self._has("_cdf"):
            return self._cdf(value, *args, **kwargs)
        if self._has("_log_cdf"):
            return ops.exp(self._log_cdf(value, *args, **kwargs))
        if self._has("_survival_function"):
            return 1.0 - self._survival_function(value, *args, **kwargs)
        if self._has("_log_survival"):
            return 1.0 - ops.exp(self._log_survival(value, *args, **kwargs))
        return self._missing("cdf")

    def log_cdf(self, value, *args, **kwargs):
        """``log P(X <= value)``."""
        if self._has("_log_cdf"):
            return self._log_cdf(value, *args, **kwargs)
        if not self._has_cdf_family():
            return self._missing("log_cdf")
        return ops.log(self.cdf(value, *args, **kwargs))

    def survival_function(self, value, *args, **kwargs):
        """``P(X > value)``."""
        if self._has("_survival_function"):
            return self._survival_function(value, *args, **kwargs)
        if self._has("_log_survival"):
            return ops.exp(self._log_survival(value, *args, **kwargs))
        if self._has("_cdf") or self._has("_log_cdf"):
            return 1.0 - self.cdf(value, *args, **kwargs)
        return self._missing("survival_function")

    def log_survival(self, value, *args, **kwargs):
        """``log P(X > value)``."""
        if self._has("_log_survival"):
            return self._log_survival(value, *args, **kwargs)
        if not self._has_cdf_family():
            return self._missing("log_cdf")  # MindSpore 2.10 names log_cdf here too
        return ops.log(self.survival_function(value, *args, **kwargs))

    def mean(self, *args, **kwargs):
        """The mean."""
        return self._mean(*args, **kwargs) if self._has("_mean") else self._missing("mean")

    def mode(self, *args, **kwargs):
        """The mode."""
        return self._mode(*args, **kwargs) if self._has("_mode") else self._missing("mode")

    def sd(self, *args, **kwargs):
        """The standard deviation."""
        if self._has("_sd"):
            return self._sd(*args, **kwargs)
        return ops.sqrt(self._var(*args, **kwargs)) if self._has("_var") else self._missing("sd")

    def var(self, *args, **kwargs):
        """The variance."""
        if self._has("_var"):
            return self._var(*args, **kwargs)
        return ops.square(self._sd(*args, **kwargs)) if self._has("_sd") else self._missing("var")

    def entropy(self, *args, **kwargs):
        """The entropy."""
        return self._entropy(*args, **kwargs) if self._has("_entropy") else self._missing("entropy")

    def kl_loss(self, dist, *args, **kwargs):
        """KL(self || other), the other distribution of kind ``dist`` given by its parameters in ``args``."""
        return self._kl_loss(dist, *args, **kwargs) if self._has("_kl_loss") else self._missing("kl_loss")

    def cross_entropy(self, dist, *args, **kwargs):
        """The cross entropy with another distribution of kind ``dist``: entropy plus KL divergence."""
        if not self._has("_kl_loss") or not self._has("_entropy"):
            return self._missing("cross_entropy")
        self._check_dist_name(dist)
        count = len(self.parameter_names)
        own = args[count:]
        return self.entropy(*own) + self.kl_loss(dist, *args, **kwargs)

    def sample(self, *args, **kwargs):
        """Samples of shape ``shape + batch shape`` (``shape`` first, then the optional parameters)."""
        return self._sample(*args, **kwargs) if self._has("_sample") else self._missing("sample")

    def _uniform(self, shape):
        """Uniform samples on [0, 1) in the parameter type, the source of most samplers here: MindSpore's
        ``ops.uniform`` with the distribution's ``seed`` as op seed (so under ``set_seed`` they are MindSpore's
        numbers wherever the sampler's formula is MindSpore's), a () shape drawn as (1,) and squeezed."""
        return ops.cast(self._seeded_draw(ops.uniform, shape, Tensor(0.0), Tensor(1.0)), self.parameter_type)

    def _seeded_draw(self, draw, shape, *parameters):
        """``draw(sample shape, *parameters, seed=self.seed)`` as MindSpore's samplers call it: a () shape is
        drawn as (1,), then squeezed."""
        shape = tuple(shape)
        sample = draw(shape or (1,), *parameters, seed=self._seed)
        return sample if shape else ops.squeeze(sample, 0)

    def construct(self, name, *args, **kwargs):
        if name not in _METHODS:
            raise ValueError(f"For '{self.name}', the method name must be one of {', '.join(_METHODS)}, but got "
                             f"{name!r}.")
        return getattr(self, name)(*args, **kwargs)

    def extend_repr(self):
        labels = getattr(self, "_repr_labels", self.parameter_names)
        if not labels:  # no parameters, or (HalfNormal, Laplace, StudentT) MindSpore prints none
            return ""
        if self.is_scalar_batch:
            return ", ".join(f"{label} = {value}" for label, value in zip(labels, self.default_parameters))
        return f"batch_shape = {self.batch_shape}"
