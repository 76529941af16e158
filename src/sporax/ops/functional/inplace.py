"""Row updates and in-place ops: ``inplace_add``/``inplace_sub``/``inplace_update`` (new tensors, as in
MindSpore), ``inplace_index_add`` (updates a Parameter), and the ``_`` ops that overwrite their input:
``clamp_``, ``erfinv_``, ``inplace_sigmoid``, ``exponential_``, ``bernoulli_``; plus ``bernoulli_ext``,
``deepcopy`` and ``dyn_shape``. All are op-table entries: the ``_`` ops store their result into their input
(the table's ``writes``), the random fills draw a key per call (``random``).

Contract: an in-place op rebinds the input Tensor's slot (``sporax.state.assign.write``: shape and
dtype kept) and returns the input; random fills draw from the global random state (a ``generator``
argument is accepted; its draws come from the same global state).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> x = Tensor(np.array([-2.0, 0.5], np.float32))
    >>> _ = ops.clamp_(x, -1.0, 1.0)
    >>> x.asnumpy().tolist()
    [-1.0, 0.5]
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.functional import activation, math
from sporax.ops.functional.comparison import clamp
from sporax.ops.functional.math import _erfinv_reference
from sporax.ops.functional.indexing import int_array, sample_case, sample_maker
from sporax.ops.functional.scatters import numpy_apply_at
from sporax.ops.functional.random import _key as draw_key
from sporax.ops.op_table import ANY, Distribution, Sample, op, spelling
from sporax.ops.samples import unary, with_settings


def _row_update(op_name, x, v, indices, method):
    """``x`` with ``v`` applied (``method`` of ``.at``) at the rows ``indices`` (an int, ints or a Tensor)."""
    rows = indices.reshape(-1)
    if v.ndim == x.ndim - 1:
        v = v[None]
    if v.shape[1:] != x.shape[1:] or v.shape[0] != rows.shape[0]:
        raise ValueError(f"For '{op_name}', 'v' must have shape ({rows.shape[0]},) + {tuple(x.shape[1:])} "
                         f"(one row per index), but got {tuple(v.shape)}.")
    return getattr(x.at[rows], method)(v.astype(x.dtype))


def _numpy_rows(ufunc):
    def reference(x, v, indices):
        rows = np.reshape(indices, -1)
        return numpy_apply_at(x, rows, np.reshape(v, (rows.size,) + np.shape(x)[1:]), ufunc)
    return reference


# Distinct rows: an assignment to one row twice has no defined order.
_ROW_SAMPLES = sample_maker(sample_case(((3, 4), 0), ((2, 4), 1), int_array([2, 0])),
                            sample_case(((4, 2), 2), ((2,), 3), int_array(1)),
                        sample_case(((3, 4), 4), ((4,), 5), 1))
_ROW_OPTIONS = dict(inputs=("x", "v", "indices"), indices="indices", dtypes=ANY, samples=_ROW_SAMPLES)


@op(reference=_numpy_rows(np.add), **_ROW_OPTIONS)
def inplace_add(x, v, indices):
    """``x`` with ``v`` added to the rows ``indices`` (a new Tensor).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.inplace_add(Tensor(np.zeros((3, 1), np.float32)), Tensor(np.ones((2, 1), np.float32)), (0, 2)))
        [[1.]
         [0.]
         [1.]]
    """
    return _row_update("inplace_add", x, v, indices, "add")


@op(reference=_numpy_rows(np.subtract), **_ROW_OPTIONS)
def inplace_sub(x, v, indices):
    """``x`` with ``v`` subtracted from the rows ``indices`` (a new Tensor)."""
    return _row_update("inplace_sub", x, v, indices, "subtract")


@op(reference=_numpy_rows(None), **_ROW_OPTIONS)
def inplace_update(x, v, indices):
    """``x`` with the rows ``indices`` replaced by ``v`` (a new Tensor)."""
    return _row_update("inplace_update", x, v, indices, "set")


def _numpy_index_add(var, indices, updates, axis):
    result = np.moveaxis(np.array(var, copy=True), axis, 0)
    np.add.at(result, indices, np.moveaxis(updates, axis, 0))
    return np.moveaxis(result, 0, axis)


@op(inputs=("var", "indices", "updates"), indices="indices", writes="var", snapshot=True, dtypes=ANY,
    grad_check=False, reference=_numpy_index_add,
    samples=sample_maker(sample_case(((3, 4), 0), int_array([1, 1, 0]), ((3, 4), 1), axis=0),
                     sample_case(((3, 4), 2), int_array([3, 0]), ((3, 2), 3), axis=-1)))
def inplace_index_add(var, indices, updates, axis):
    """Add ``updates`` into Parameter ``var`` at ``indices`` along ``axis``; returns ``var``.

    Example:
        >>> import numpy as np
        >>> import sporax as ms
        >>> w = ms.Parameter(ms.Tensor(np.zeros((2, 2), np.float32)), name="w")
        >>> _ = ms.ops.inplace_index_add(w, ms.Tensor(np.array([1], np.int32)), ms.Tensor(np.ones((1, 2), np.float32)), 0)
        >>> w.asnumpy().tolist()
        [[0.0, 0.0], [1.0, 1.0]]
    """
    if indices.ndim != 1:
        raise TypeError(f"For 'inplace_index_add', 'indices' must be a 1-D int Tensor, but got shape "
                        f"{tuple(indices.shape)}.")
    if var.ndim == 0:
        raise ValueError(f"For primitive[InplaceIndexAdd], the attribute[var rank] must be equal to "
                         f"{updates.ndim}, but got 0: 'var' must have the rank of 'updates'.")
    axis = int(axis) % var.ndim
    expected = var.shape[:axis] + (indices.shape[0],) + var.shape[axis + 1:]
    if tuple(updates.shape) != expected:
        raise ValueError(f"For 'inplace_index_add', 'updates' must have shape {expected}, but got "
                         f"{tuple(updates.shape)}.")
    moved = jnp.moveaxis(var, axis, 0).at[indices].add(jnp.moveaxis(updates.astype(var.dtype), axis, 0))
    return jnp.moveaxis(moved, 0, axis)


def _numpy_clamp(input, min=None, max=None):
    return np.clip(input, min, max)


_CLAMP_SAMPLES = sample_maker(sample_case(((3, 4), 0), -1.0, 2.0), sample_case(((3, 4), 1), ((4,), 2), ((), 3)),
                              sample_case(((7,), 4), max=0.5))


@op(inputs=("input", "min", "max"), scalars=("min", "max"), writes="input", dtypes=ANY, grad_check=False,
    samples=_CLAMP_SAMPLES, reference=_numpy_clamp)
def clamp_(input, min=None, max=None):
    """Clamp ``input`` into [min, max] in place (in its own dtype); returns ``input``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x = Tensor(np.array([-2.0, 0.5, 3.0], np.float32))
        >>> ops.clamp_(x, -1.0, 1.0).asnumpy().tolist()
        [-1.0, 0.5, 1.0]
    """
    return clamp.entry.kernel(input, min, max).astype(input.dtype)


@op(writes="input", dtypes=ANY, grad_check=False, samples=unary(-0.9, 0.9, shapes=((3, 4),)),
    reference=lambda input: _erfinv_reference(input))
def erfinv_(input):
    """Replace ``input`` by its inverse error function in place (integers compute in Float32); returns ``input``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.erfinv_(Tensor(np.array([0.0], np.float32))).asnumpy().tolist()
        [0.0]
    """
    return math.erfinv.entry.kernel(input.astype(jnp.float32) if input.dtype.kind in "biu" else input)


def in_place_of(name, function, reference, summary, module=__name__, mint=()):
    """Declare ``name``: the kernel of ``function``'s entry (a float op) stored into its ``input``; returns its face
    (``mint``: its ``mint`` names or spellings)."""

    def kernel(input):
        return function.entry.kernel(input)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__module__ = module
    kernel.__doc__ = (f"{summary}\n\n    Example:\n        >>> import numpy as np\n        >>> from sporax import Tensor\n"
                      f"        >>> from {module} import {name}\n"
                      f"        >>> x = Tensor(np.array([0.5], np.float32))\n        >>> {name}(x) is x\n        True\n")
    return op(writes="input", grad_check=False, samples=unary(shapes=((3, 4),)), reference=reference, mint=mint)(kernel)


inplace_sigmoid = in_place_of("inplace_sigmoid", math.sigmoid, lambda input: 1 / (1 + np.exp(-input)),
                              "Replace ``input`` by its logistic sigmoid in place; returns ``input``.",
                              mint=spelling("sigmoid_", "input", namespaces="mint.nn.functional"))
# MindSpore's InplaceReLU / InplaceSiLU / InplaceElu / InplaceHardtanh / InplaceThreshold: the activations' kernels
# stored into their input (``mint.nn.functional.relu_``, and ``relu6``/``silu``/... with ``inplace=True``).
inplace_relu = in_place_of("inplace_relu", activation.relu, lambda input: np.maximum(input, 0),
                           "Replace ``input`` by ``max(input, 0)`` in place; returns ``input``.",
                           mint=spelling("relu_", "input", namespaces="mint.nn.functional"))
inplace_silu = in_place_of("inplace_silu", activation.silu, lambda input: input / (1 + np.exp(-input)),
                           "Replace ``input`` by ``input * sigmoid(input)`` in place; returns ``input``.")


@op(mint=spelling("elu_", "input, alpha=1.0", namespaces="mint.nn.functional"), writes="input", grad_check=False,
    samples=with_settings(unary(shapes=((3, 4),)), {"alpha": 0.5}),
    reference=lambda input, alpha=1.0: np.where(input > 0, input, alpha * (np.exp(input) - 1)))
def inplace_elu(input, alpha=1.0):
    """Replace ``input`` by its ELU (``alpha * (exp(x) - 1)`` where not positive) in place; returns ``input``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.ops.functional.inplace import inplace_elu
        >>> x = Tensor(np.array([-1.0, 2.0], np.float32))
        >>> inplace_elu(x) is x
        True
    """
    return activation.elu.entry.kernel(input, alpha)


@op(mint=spelling("hardtanh_", "input, min_val=-1, max_val=1", namespaces="mint.nn.functional"), writes="input",
    grad_check=False, samples=with_settings(unary(shapes=((3, 4),)), {"min_val": -0.5, "max_val": 2.0}),
    reference=lambda input, min_val=-1.0, max_val=1.0: np.minimum(np.maximum(input, min_val), max_val))
def inplace_hardtanh(input, min_val=-1.0, max_val=1.0):
    """Clamp ``input`` to ``[min_val, max_val]`` in place; returns ``input``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.ops.functional.inplace import inplace_hardtanh
        >>> x = Tensor(np.array([-2.0, 0.5], np.float32))
        >>> inplace_hardtanh(x).asnumpy().tolist()
        [-1.0, 0.5]
    """
    return activation.hardtanh.entry.kernel(input, min_val, max_val)


@op(mint=spelling("threshold_", "input, threshold, value", thr="threshold", namespaces="mint.nn.functional"),
    writes="input", dtypes=ANY, grad_check=False, samples=unary(shapes=((3, 4),), thr=0.0, value=-1.0),
    reference=lambda input, thr, value: np.where(input > thr, input, value))
def inplace_threshold(input, thr, value):
    """Replace the elements of ``input`` not greater than ``thr`` by ``value``, in place; returns ``input``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> from sporax.ops.functional.inplace import inplace_threshold
        >>> x = Tensor(np.array([0.5, 2.0], np.float32))
        >>> inplace_threshold(x, 1.0, 0.0).asnumpy().tolist()
        [0.0, 2.0]
    """
    return activation.threshold.entry.kernel(input, thr, value)


def fill_samples(**settings):
    """The sample of an in-place random fill: a Float32 Tensor of 2000 zeros (enough draws for the op test table
    to check their moments), ``settings`` as keywords."""
    return lambda dtype: [Sample((np.zeros((40, 50), np.float32),), settings)] if dtype == "float32" else []


def _exponential_draws(input, lambd=1, generator=None):
    return Distribution(input.shape, input.dtype.name, mean=1 / lambd, std=1 / lambd, low=0.0)


@op(writes="input", random=draw_key, grad_check=False, samples=fill_samples(lambd=2.0), reference=_exponential_draws)
def exponential_(input, lambd=1, *, generator=None, key):
    """Fill ``input`` in place with samples of the exponential distribution of rate ``lambd``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x = ops.exponential_(Tensor(np.zeros(4, np.float32)), 2.0)
        >>> bool((x.asnumpy() >= 0).all())
        True
    """
    if isinstance(lambd, bool) or not isinstance(lambd, numbers.Real) or lambd <= 0:
        raise ValueError(f"For 'exponential_', 'lambd' must be a positive number, but got {lambd!r}.")
    return jax.random.exponential(key, input.shape, jnp.float32) / lambd


def _bernoulli_draws(input, p=0.5, generator=None):
    return Distribution(input.shape, input.dtype.name, mean=p, std=np.sqrt(p * (1 - p)), low=0.0, high=1.0)


@op(inputs=("input", "p"), writes="input", dtypes=ANY, random=draw_key, grad_check=False,
    samples=fill_samples(p=0.3), reference=_bernoulli_draws)
def bernoulli_(input, p=0.5, *, generator=None, key):
    """Fill ``input`` in place with 0/1 draws of probability ``p`` (a number or a broadcastable Tensor).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.bernoulli_(Tensor(np.zeros(3, np.float32)), 1.0))
        [1. 1. 1.]
    """
    if not hasattr(p, "dtype") and (isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1):
        raise ValueError(f"For 'bernoulli_', 'p' must be a number in [0, 1] or a Tensor, but got {p!r}.")
    return jax.random.bernoulli(key, p, input.shape).astype(input.dtype)


def _probability_samples(dtype):
    probabilities = np.random.default_rng(4).uniform(0.2, 0.8, (40, 50)).astype(np.float32)
    return [Sample((probabilities,))] if dtype == "float32" else []


def _bernoulli_ext_draws(input, generator=None):
    return Distribution(input.shape, input.dtype.name, mean=input, std=np.sqrt(input * (1 - input)), low=0.0,
                        high=1.0)


@op(random=draw_key, grad_check=False, samples=_probability_samples, reference=_bernoulli_ext_draws)
def bernoulli_ext(input, *, generator=None, key):
    """0/1 draws (in ``input``'s dtype) with the probabilities held in ``input``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.bernoulli_ext(Tensor(np.array([0.0, 1.0], np.float32))))
        [0. 1.]
    """
    return jax.random.bernoulli(key, input.astype(jnp.float32), input.shape).astype(input.dtype)


@op(inputs="input_x", dtypes=ANY, mint=spelling("clone", "input", input_x="input"), samples=unary(shapes=((3, 4),)),
    reference=lambda input_x: np.array(input_x))
def deepcopy(input_x):
    """A new Tensor with ``input_x``'s values.

    Example:
        >>> from sporax import Tensor, ops
        >>> ops.deepcopy(Tensor([1.0])).asnumpy().tolist()
        [1.0]
    """
    return jnp.array(input_x, copy=True)


@op(inputs="input_x", dtypes=ANY, grad_check=False, samples=unary(shapes=((2, 3, 4), ())),
    reference=lambda input_x: np.asarray(np.shape(input_x), np.int64))
def dyn_shape(input_x):
    """The shape of ``input_x`` as a 1-D Int64 Tensor.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.dyn_shape(Tensor(np.ones((2, 3), np.float32))))
        [2 3]
    """
    return jnp.asarray(input_x.shape, jnp.int64)
