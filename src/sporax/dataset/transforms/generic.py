"""Deterministic general-purpose transforms of ``mindspore.dataset.transforms``."""
import enum
import numbers

import numpy as np

from sporax.dataset.transforms.base import (Implementation, TensorOperation, apply_chain, check_transforms_list,
                                           to_array, unpack)


def to_numpy_dtype(op_name, data_type):
    """Return the ``np.dtype`` for a MindSpore type, NumPy dtype/type or dtype name."""
    from sporax.core import dtype as mstype  # NumPy-only module; imported late to keep workers light

    if isinstance(data_type, mstype.Type):
        if not data_type.is_number:
            raise TypeError(f"{op_name}: data_type {data_type!r} is not a number type.")
        return np.dtype(mstype.dtype_to_nptype(data_type))
    if isinstance(data_type, (np.dtype, str)) or (isinstance(data_type, type) and issubclass(data_type, np.generic)):
        try:
            return np.dtype(data_type)
        except TypeError as error:
            raise TypeError(f"{op_name}: unknown data type {data_type!r}.") from error
    raise TypeError(f"{op_name}: argument data_type with value {data_type!r} is not of type "
                    f"[mindspore.dtype, numpy.dtype], but got {type(data_type)}.")


def _cast_scalar(value, dtype):
    """Cast a Python scalar to ``dtype`` the way C++ assignment does (wrapping integers)."""
    if dtype.kind in "iu" and isinstance(value, numbers.Integral):
        return np.array(value).astype(np.int64).astype(dtype)
    return np.array(value).astype(dtype)


class Compose(TensorOperation):
    """Apply a list of transforms (transform objects or Python functions) one after another."""

    def __init__(self, transforms):
        self.transforms = check_transforms_list("Compose", transforms)

    @property
    def random(self):
        return any(getattr(op, "random", True) for op in self.transforms)

    @property
    def mindspore_draws(self):
        # A member that draws as MindSpore does (UniformAugment in MindSpore's docstring) draws the same
        # inside a Compose: the map gives it MindSpore's streams.
        return any(getattr(op, "mindspore_draws", False) for op in self.transforms)

    def __call__(self, *columns):
        outputs = apply_chain(self.transforms, columns)
        if any(getattr(op, "implementation", None) == Implementation.PY for op in self.transforms):
            # As MindSpore 2.10: with a Python-kernel member, Compose runs its Python path and returns
            # a tuple of the outputs even for one (Compose([ToPIL(), ToTensor()])(img) is (array,)).
            return tuple(outputs)
        return unpack(outputs)

    def _batch_call(self, *columns):
        """Batched path when every member offers one."""
        for op in self.transforms:
            batch_call = getattr(op, "_batch_call", None)
            if batch_call is None:
                return NotImplemented
            result = batch_call(*columns)
            if result is NotImplemented:
                return NotImplemented
            columns = result if isinstance(result, tuple) else (result,)
        return unpack(columns)


class TypeCast(TensorOperation):
    """Cast an array to ``data_type`` (a MindSpore type such as ``mindspore.int32`` or a NumPy dtype)."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._dtype = to_numpy_dtype("TypeCast", data_type)

    def __call__(self, data):
        data = to_array(data, "TypeCast")
        if data.dtype.kind in "US" and self._dtype.kind not in "US":
            raise RuntimeError(f"TypeCast: TypeCast does not support cast from string to {self._dtype}.")
        return data.astype(self._dtype)

    def _batch_call(self, data):
        return self(data)


class OneHot(TensorOperation):
    """Turn integer labels into one-hot vectors of length ``num_classes`` (optionally label-smoothed)."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        if isinstance(num_classes, bool) or not isinstance(num_classes, int):
            raise TypeError(f"OneHot: num_classes must be of type int, but got {type(num_classes).__name__}.")
        if num_classes <= 0:
            raise ValueError("OneHot: Input num_classes must be greater than 0.")
        if not isinstance(smoothing_rate, (int, float)) or not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"OneHot: Input smoothing_rate is not within the required interval of [0.0, 1.0], "
                             f"got {smoothing_rate!r}.")
        self.num_classes = num_classes
        self.smoothing_rate = smoothing_rate

    def _encode(self, label):
        if label.dtype.kind not in "iu":
            raise RuntimeError(f"OneHot: Only support input of int type, but got: {label.dtype}.")
        if np.any(label >= self.num_classes):
            raise RuntimeError(f"OneHot: index values should not bigger than num classes: {self.num_classes}, "
                               f"but got: {int(label.max())}.")
        # Negative labels give an all-zero row, as in MindSpore.
        hot = np.arange(self.num_classes) == label[..., None]
        if self.smoothing_rate:
            off = self.smoothing_rate / self.num_classes
            return np.where(hot, 1.0 - self.smoothing_rate + off, off)
        return hot.astype(label.dtype)

    def __call__(self, label):
        label = to_array(label, "OneHot")
        # MindSpore drops unit dimensions first: a one-element label is a scalar, (N, 1) and (1, N)
        # labels are 1-D.
        label = label.reshape([size for size in label.shape if size != 1])
        if label.ndim > 1:
            raise RuntimeError(f"OneHot: expected a scalar or 1-D label, got shape {label.shape}.")
        return self._encode(label)

    def _batch_call(self, label):
        if label.ndim != 1:
            return NotImplemented
        return self._encode(label)


class Fill(TensorOperation):
    """Fill every element of the input with ``fill_value`` (cast to the input's dtype)."""

    def __init__(self, fill_value):
        if not isinstance(fill_value, (str, bytes, bool, int, float)):
            raise TypeError(f"Fill: fill_value must be a str, bytes, int, float or bool, "
                            f"got {type(fill_value).__name__}.")
        self.fill_value = fill_value

    def __call__(self, data):
        data = to_array(data, "Fill")
        if (data.dtype.kind in "US") != isinstance(self.fill_value, (str, bytes)):
            raise RuntimeError(f"Fill: fill_value {self.fill_value!r} does not match the input dtype {data.dtype}.")
        if data.dtype.kind in "US":
            return np.full(data.shape, self.fill_value)
        return np.full(data.shape, _cast_scalar(self.fill_value, data.dtype), dtype=data.dtype)


class Concatenate(TensorOperation):
    """Concatenate a 1-D input with optional 1-D ``prepend`` and ``append`` arrays."""

    def __init__(self, axis=0, prepend=None, append=None):
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"Concatenate: axis must be of type int, but got {type(axis).__name__}.")
        for name, value in (("prepend", prepend), ("append", append)):
            if value is not None and np.asarray(value).ndim != 1:
                raise ValueError(f"can only {name} 1D arrays.")
        self.axis = axis
        self.prepend = None if prepend is None else np.asarray(prepend)
        self.append = None if append is None else np.asarray(append)

    def __call__(self, data):
        data = to_array(data, "Concatenate")
        if data.ndim != 1:
            raise RuntimeError(f"Concatenate: only 1-D input is supported, got shape {data.shape}.")
        parts = []
        for name, extra in (("prepend", self.prepend), (None, data), ("append", self.append)):
            if extra is None:
                continue
            if name and extra.dtype != data.dtype and not (extra.dtype.kind in "US" and data.dtype.kind in "US"):
                raise RuntimeError(f"Concatenate: input datatype does not match the {name} datatype, got input "
                                   f"datatype: {data.dtype}, {name} datatype: {extra.dtype}.")
            parts.append(extra)
        return np.concatenate(parts)


class Duplicate(TensorOperation):
    """Return the input twice (two output columns); the second is a copy."""

    def __call__(self, data):
        data = to_array(data, "Duplicate")
        return data, data.copy()

    def _batch_call(self, data):
        return data, data.copy()


class Relational(enum.IntEnum):
    """Comparison used by ``Mask``."""

    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
            Relational.GE: np.greater_equal, Relational.LT: np.less, Relational.LE: np.less_equal}


class Mask(TensorOperation):
    """Compare each element with ``constant`` using ``operator`` and return the result as ``dtype``."""

    def __init__(self, operator, constant, dtype=None):
        if not isinstance(operator, Relational):
            raise TypeError(f"Mask: operator must be a Relational, got {operator!r}.")
        if not isinstance(constant, (str, bytes, bool, int, float)):
            raise TypeError(f"Mask: constant must be a str, bytes, int, float or bool, got {type(constant).__name__}.")
        self.operator = operator
        self.constant = constant
        self.dtype = dtype
        self._dtype = np.dtype(bool) if dtype is None else to_numpy_dtype("Mask", dtype)

    def __call__(self, data):
        data = to_array(data, "Mask")
        if (data.dtype.kind in "US") != isinstance(self.constant, (str, bytes)):
            raise RuntimeError(f"Mask: constant {self.constant!r} does not match the input dtype {data.dtype}.")
        # The constant takes the input's dtype first (so ``< 1.5`` on integers compares with 1).
        constant = self.constant if data.dtype.kind in "US" else _cast_scalar(self.constant, data.dtype)
        return _COMPARE[self.operator](data, constant).astype(self._dtype)


class PadEnd(TensorOperation):
    """Pad (or truncate) each dimension of the input at its end to ``pad_shape``."""

    def __init__(self, pad_shape, pad_value=None):
        if not isinstance(pad_shape, (list, tuple)) or not all(
                isinstance(dim, int) and not isinstance(dim, bool) and dim > 0 for dim in pad_shape):
            raise TypeError(f"PadEnd: pad_shape must be a list of positive ints, got {pad_shape!r}.")
        if pad_value is not None and not isinstance(pad_value, (str, bytes, bool, int, float)):
            raise TypeError(f"PadEnd: pad_value must be a str, bytes, int, float or bool, got {pad_value!r}.")
        self.pad_shape = list(pad_shape)
        self.pad_value = pad_value

    def __call__(self, data):
        data = to_array(data, "PadEnd")
        if data.ndim != len(self.pad_shape):
            raise RuntimeError(f"PadEnd: invalid pad shape, as rank of input is: {data.ndim}, and rank of pad "
                               f"value: {len(self.pad_shape)}.")
        if data.dtype.kind in "US":
            value = "" if self.pad_value is None else self.pad_value
            out = np.full(self.pad_shape, value, dtype=np.result_type(data.dtype, np.asarray(value).dtype))
        else:
            if isinstance(self.pad_value, (str, bytes)):
                raise RuntimeError(f"PadEnd: pad_value {self.pad_value!r} is a string but the input is {data.dtype}.")
            value = _cast_scalar(0 if self.pad_value is None else self.pad_value, data.dtype)
            out = np.full(self.pad_shape, value, dtype=data.dtype)
        keep = tuple(slice(0, min(have, want)) for have, want in zip(data.shape, self.pad_shape))
        out[keep] = data[keep]
        return out


def _index_for(op_name, item):
    if item is None or item is True or item is Ellipsis:
        return item
    if isinstance(item, bool):  # False: MindSpore slices nothing
        return slice(0, 0)
    if isinstance(item, int):
        return [item]
    if isinstance(item, slice):
        return item
    if isinstance(item, (list, tuple)) and all(isinstance(i, int) and not isinstance(i, bool) for i in item):
        return list(item)
    raise TypeError(f"{op_name}: argument slice with value {item!r} is not of type [int, list, slice, bool, "
                    f"ellipsis], but got {type(item)}.")


class Slice(TensorOperation):
    """Slice an array: one entry per leading dimension (int keeps the dimension, list picks, slice, None/... = all)."""

    def __init__(self, *slices):
        self.slices = slices
        self._indices = [_index_for("Slice", item) for item in slices]

    def __call__(self, data):
        data = to_array(data, "Slice")
        indices = self._indices
        if Ellipsis in indices:
            at = indices.index(Ellipsis)
            rest = indices[at + 1:]
            indices = indices[:at] + [None] * (data.ndim - len(indices) + 1) + rest
        if len(indices) > data.ndim:
            raise RuntimeError(f"Slice: {len(indices)} slice entries given for an input of rank {data.ndim}.")
        for axis, index in enumerate(indices):
            if index is None or index is True:
                continue
            if isinstance(index, list):
                size = data.shape[axis]
                for i in index:
                    if not -size <= i < size:
                        raise RuntimeError(f"Slice: Index {i} is out of bounds for axis {axis} of size {size}.")
                data = np.take(data, index, axis=axis)
            else:
                data = data[(slice(None),) * axis + (index,)]
        return data


class Unique(TensorOperation):
    """Return (unique elements in first-seen order, index of each element in them, counts) of the flattened input."""

    def __call__(self, data):
        data = to_array(data, "Unique")
        if data.ndim < 2:  # MindSpore 2.10's kernel refuses a 0-D or 1-D input
            raise RuntimeError(f"Unique: input must be at least 2-D in order to do unique op, got rank:{data.ndim} "
                               f"(shape {data.shape}); give it a 2-D array, e.g. data.reshape(1, -1).")
        data = data.reshape(-1)
        values, first, inverse, counts = np.unique(data, return_index=True, return_inverse=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return values[order], rank[inverse].astype(np.int32), counts[order].astype(np.int32)


class Plugin(TensorOperation):
    """MindSpore's C++ plugin loader; sporax cannot load MindSpore's native plugins."""

    def __init__(self, lib_path, func_name, user_args=None):
        raise NotImplementedError("transforms.Plugin loads MindSpore C++ plugin libraries, which sporax does "
                                  "not support; wrap the function in Python and pass it to map instead.")


def not_random(function):
    """Mark a Python function used in ``map`` as deterministic (it draws no random numbers)."""
    function.random = False
    return function
