"""Sample inputs for op-table entries: the op test table runs every face on them.

A sample maker is ``maker(dtype)`` -> list of ``Sample``; ``dtype`` is a NumPy dtype name
(``"float32"``, ``"float16"``, ``"bfloat16"``). Values are drawn from a generator seeded by the
maker's arguments, so every run sees the same inputs.

Example:
    >>> from sporax.ops.samples import unary
    >>> [sample.arrays[0].shape for sample in unary()("float32")]
    [(3, 4), (7,), ()]
    >>> [sample.kwargs for sample in reduction()("float32")][2:]
    [{'axis': 1, 'keep_dims': True}, {'axis': (0, 2)}, {'keep_dims': True}]
    >>> [tuple(getattr(array, "shape", array) for array in sample.arrays) for sample in binary()("float32")]
    [((3, 4), (3, 4)), ((3, 4), (4,)), ((), (7,)), ((3, 4), 1.5)]
"""
import ml_dtypes  # ships with jax; NumPy names bfloat16 through it
import numpy as np

from sporax.ops.op_table import Sample

SHAPES = ((3, 4), (7,), ())
AXIS_SHAPES = ((3, 4), (7,))  # ops along an axis take no 0-d input
BINARY_SHAPES = (((3, 4), (3, 4)), ((3, 4), (4,)), ((), (7,)))  # equal, broadcast, 0-d beside 1-d


def _values(shape, dtype, low, high, seed, avoid=None):
    generator = np.random.default_rng(seed)
    values = generator.uniform(low, high, size=shape)
    if avoid is not None:
        # Keep finite differences away from kinks (relu at 0, shrink at +-lambd).
        for point in np.atleast_1d(avoid):
            values = np.where(np.abs(values - point) < 0.05, values + 0.1, values)
    return np.asarray(values).astype(_numpy_dtype(dtype))


def _numpy_dtype(name):
    return np.dtype(getattr(ml_dtypes, name)) if name == "bfloat16" else np.dtype(name)


def binary(low=-4.0, high=4.0, other=None, shapes=BINARY_SHAPES, scalar=1.5, ties=False, integral=False,
           integer=False):
    """Two operands per pair of ``shapes`` (broadcastable), then a Tensor beside the Python number ``scalar`` (None:
    no such sample, for ops that take two Tensors alone).

    ``other`` is ``(low, high)`` of the second operand (default: the first's range), e.g. away from
    zero for a divisor. ``ties`` copies every other value of the first operand into the second (and
    ``scalar`` into the first), so comparisons meet equal values. ``integral`` rounds the values to
    whole numbers (floor division and remainders are then exact in every float dtype). ``integer``
    gives Int32 operands, for ops that take no float dtype: only ``"float32"``/``"float64"`` get them
    (one run, not one per float dtype).
    """
    other_low, other_high = other if other is not None else (low, high)

    def operand(shape, dtype, lower, upper, seed):
        values = np.asarray(np.random.default_rng(seed).uniform(lower, upper, size=shape))
        if integral or integer:
            values = np.round(values)
        return values.astype(np.int32 if integer else _numpy_dtype(dtype))

    def make(dtype):
        if integer and dtype not in ("float32", "float64"):
            return []
        samples = []
        for seed, (first_shape, second_shape) in enumerate(shapes):
            first = operand(first_shape, dtype, low, high, seed)
            second = operand(second_shape, dtype, other_low, other_high, seed + 100)
            if ties and first.shape == second.shape:
                second.flat[::2] = first.flat[::2]
            samples.append(Sample((first, second)))
        if scalar is None:
            return samples
        first = operand(shapes[0][0], dtype, low, high, len(shapes))
        if ties:
            first.flat[0] = scalar
        samples.append(Sample((first, int(scalar) if integer else scalar)))
        return samples

    return make


def unary(low=-4.0, high=4.0, avoid=None, shapes=SHAPES, **kwargs):
    """One Tensor input per shape of ``shapes``, uniform in ``[low, high)``; ``kwargs`` as settings."""

    def make(dtype):
        return [Sample((_values(shape, dtype, low, high, seed, avoid),), dict(kwargs))
                for seed, shape in enumerate(shapes)]

    return make


def without(dtypes, maker):
    """The sample maker ``maker`` with no samples in ``dtypes`` (those an op refuses, as MindSpore does:
    ``without(("float16", "bfloat16"), binary())``)."""
    return lambda dtype: [] if dtype in dtypes else maker(dtype)


def with_settings(maker, *settings):
    """``maker``'s samples, once more for each dict of settings in ``settings``."""

    def make(dtype):
        samples = maker(dtype)
        return samples + [Sample(sample.arrays, dict(sample.kwargs, **extra))
                          for extra in settings for sample in samples[:1]]

    return make


def reduction(axis="axis", keep="keep_dims", low=-4.0, high=4.0, single=False, required=False, **kwargs):
    """Samples of a reduction over ``axis`` (its parameter name; ``keep`` names keepdims, or None).

    A (3, 4) and a (7,) Tensor with the default axis (all axes; axis 0 when the axis is
    ``required``), then the (3, 4) one over axis 1 keeping dims (axis -1 for an op of a
    ``single`` axis), a (2, 3, 2) one over the tuple of axes (0, 2) unless the axis is single,
    and every axis keeping dims.
    """

    def make(dtype):
        matrix, vector, cube = (_values(shape, dtype, low, high, seed)
                                for seed, shape in enumerate(((3, 4), (7,), (2, 3, 2))))
        default = {axis: 0} if required else {}
        kept = {keep: True} if keep else {}
        settings = [(matrix, default), (vector, default), (matrix, dict({axis: -1 if single else 1}, **kept))]
        if not single:
            settings.append((cube, {axis: (0, 2)}))
        if kept and not required:
            settings.append((matrix, kept))
        return [Sample((array,), dict(kwargs, **extra)) for array, extra in settings]

    return make


def shaped(*cases, low=-4.0, high=4.0):
    """One sample per ``(shape, settings)`` case: a Tensor of ``shape``, the ``settings`` dict as keywords
    (layout ops, whose settings depend on the shape: ``reshape`` of (2, 3, 4) to ``(4, -1)``)."""

    def make(dtype):
        return [Sample((_values(shape, dtype, low, high, seed),), dict(settings))
                for seed, (shape, settings) in enumerate(cases)]

    return make


def sequences(*cases, low=-4.0, high=4.0):
    """One sample per ``(shapes, settings)`` case: a tuple of Tensors of ``shapes`` (the one input of
    ``concat``/``stack``, an op-table ``sequences`` input), the ``settings`` dict as keywords."""

    def make(dtype):
        return [Sample((tuple(_values(shape, dtype, low, high, seed * 10 + index)
                              for index, shape in enumerate(shapes)),), dict(settings))
                for seed, (shapes, settings) in enumerate(cases)]

    return make


def operands(*cases, low=-4.0, high=4.0):
    """One sample per ``(shapes, settings)`` case: one Tensor input per shape of ``shapes`` (``expand_as``'s
    ``input`` and ``other``, ``select_scatter``'s ``input`` and ``src``), the ``settings`` dict as keywords."""

    def make(dtype):
        return [Sample(tuple(_values(shape, dtype, low, high, seed * 10 + index) for index, shape in enumerate(shapes)),
                       dict(settings))
                for seed, (shapes, settings) in enumerate(cases)]

    return make


def mixed_operands(*ranges, rows):
    """Samples of an op of several Tensor-or-number inputs: one per row of ``rows``, a tuple with a shape
    (broadcastable) or a Python number for each input; input ``i`` of a shape is uniform in ``ranges[i]``.

    Example: ``mixed_operands((-4, 4), (0, 1), rows=[((3, 4), (3, 4)), ((3, 4), 0.5)])``.
    """

    def make(dtype):
        return [Sample(tuple(item if isinstance(item, (int, float)) else
                             _values(item, dtype, low, high, seed * len(ranges) + index)
                             for index, (item, (low, high)) in enumerate(zip(row, ranges))))
                for seed, row in enumerate(rows)]

    return make


def values(shape, dtype, low=-4.0, high=4.0, seed=0):
    """One sample array of ``shape`` in ``dtype`` (a NumPy dtype name), uniform in ``[low, high)``: for
    a family's own sample makers (indices and masks beside it are theirs to make)."""
    return _values(shape, dtype, low, high, seed)


def python_calls(*calls):
    """Samples of a ``SCALAR`` entry (an op of Python values): one per item of ``calls``, the arguments of one
    call (``python_calls((2, 3), (2, 3.5))`` for ``scalar_add``); the same in every dtype."""
    samples = [Sample(tuple(arguments)) for arguments in calls]
    return lambda dtype: samples
