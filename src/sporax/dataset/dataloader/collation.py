"""Turning samples into Tensors: ``default_convert`` (one sample) and ``collate``/``default_collate`` (a batch).

Containers keep their structure (a dict stays a dict of the same type, a namedtuple its type; a
tuple becomes a list, as in MindSpore 2.10); NumPy leaves become Tensors, strings stay strings.
"""
import copy
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence

import numpy as np

from sporax.core.dtype import float64
from sporax.dataset.engine.iterators import tensor_factories

_TEXT_KINDS = "SaUO"  # NumPy dtype kinds of text and objects: never turned into Tensors


def _is_text_array(array):
    return any(kind in array.dtype.str for kind in _TEXT_KINDS)


def _rebuild(container, items, mutable_type):
    """``container``'s type holding ``items`` (a dict or list where that type cannot be built so)."""
    try:
        if isinstance(container, mutable_type):
            clone = copy.copy(container)
            for key, value in items:
                clone[key] = value
            return clone
        if isinstance(container, Mapping):
            return type(container)(dict(items))
        return type(container)([value for _, value in items])
    except TypeError:
        return dict(items) if isinstance(container, Mapping) else [value for _, value in items]


def default_convert(data):
    """One sample with its NumPy arrays and scalars as Tensors (text arrays and Python values unchanged).

    Args:
        data (Any): a sample: Tensor, NumPy array or scalar, or a mapping/sequence of them.

    Returns:
        The sample, converted leaf by leaf; a plain tuple becomes a list.

    Examples:
        >>> import numpy as np
        >>> from mindspore.dataset.dataloader import default_convert
        >>> default_convert({"data": np.array([0, 1, 2])})
        {'data': Tensor(shape=[3], dtype=Int64, value= [0, 1, 2])}
    """
    from_array, tensor_type = tensor_factories()
    if isinstance(data, tensor_type):
        return data
    if isinstance(data, (np.number, np.bool_)):
        return tensor_type(data)
    if isinstance(data, np.ndarray):
        return data if _is_text_array(data) else from_array(data)
    if isinstance(data, Mapping):
        return _rebuild(data, [(key, default_convert(data[key])) for key in data], MutableMapping)
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a namedtuple keeps its type
        return type(data)(*(default_convert(item) for item in data))
    if isinstance(data, tuple):
        return [default_convert(item) for item in data]
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild(data, list(enumerate(default_convert(item) for item in data)), MutableSequence)
    return data


def collate(batch, *, collate_fn_map=None):
    """Merge a list of samples into one batch, dispatching leaves on ``collate_fn_map``.

    Args:
        batch (list): the samples.
        collate_fn_map (dict, optional): ``{type or tuple of types: fn(batch, *, collate_fn_map)}`` for
            the leaves; an exact type match wins, then the first ``isinstance`` match. Default: ``None``.

    Returns:
        The batch: mappings, namedtuples and sequences are merged field by field (a tuple gives a list).

    Raises:
        RuntimeError: the sequences in ``batch`` differ in length.
        TypeError: no function of ``collate_fn_map`` handles the samples' type.
    """
    element = batch[0]
    if collate_fn_map is not None:
        if type(element) in collate_fn_map:
            return collate_fn_map[type(element)](batch, collate_fn_map=collate_fn_map)
        for kind, function in collate_fn_map.items():
            if isinstance(element, kind):
                return function(batch, collate_fn_map=collate_fn_map)
    if isinstance(element, Mapping):
        merged = [(key, collate([sample[key] for sample in batch], collate_fn_map=collate_fn_map))
                  for key in element]
        return _rebuild(element, merged, MutableMapping)
    if isinstance(element, tuple) and hasattr(element, "_fields"):
        return type(element)(*(collate(list(field), collate_fn_map=collate_fn_map) for field in zip(*batch)))
    if isinstance(element, Sequence):
        if len({len(sample) for sample in batch}) > 1:
            raise RuntimeError("Each element in list of batch must be of equal size.")
        fields = [collate(list(field), collate_fn_map=collate_fn_map) for field in zip(*batch)]
        if isinstance(element, tuple):
            return fields
        return _rebuild(element, list(enumerate(fields)), MutableSequence)
    raise TypeError(f"Cannot find the appropriate collate function for type {type(element)} in collate_fn_map.")


def _stack_tensors(batch, *, collate_fn_map=None):
    del collate_fn_map
    return tensor_factories()[1](np.stack(batch, axis=0))


def _stack_arrays(batch, *, collate_fn_map=None):
    if _is_text_array(batch[0]):
        raise TypeError(f"NumPy arrays with dtype {batch[0].dtype} are not supported for collation.")
    from_array = tensor_factories()[0]
    return collate([from_array(array) for array in batch], collate_fn_map=collate_fn_map)


def _scalars(batch, *, collate_fn_map=None):
    del collate_fn_map
    return tensor_factories()[1](batch)


def _floats(batch, *, collate_fn_map=None):
    del collate_fn_map
    return tensor_factories()[1](batch, dtype=float64)  # Python floats are doubles


def _texts(batch, *, collate_fn_map=None):
    del collate_fn_map
    return batch


def default_collate_fn_map():
    """``default_collate``'s leaf functions (built on call: the Tensor type is registered by sporax)."""
    return {tensor_factories()[1]: _stack_tensors, np.ndarray: _stack_arrays,
            (np.bool_, np.number, np.object_): _scalars, float: _floats, int: _scalars,
            str: _texts, bytes: _texts}


def default_collate(batch):
    """Merge a list of samples into one batch: numbers and arrays are stacked into Tensors.

    Args:
        batch (list): the samples.

    Returns:
        The batch: Python ints give an Int64 Tensor, floats a Float64 Tensor, strings stay a list.

    Examples:
        >>> from mindspore.dataset.dataloader import default_collate
        >>> default_collate([(0, 3), (1, 4), (2, 5)])
        [Tensor(shape=[3], dtype=Int64, value= [0, 1, 2]), Tensor(shape=[3], dtype=Int64, value= [3, 4, 5])]
    """
    return collate(batch, collate_fn_map=default_collate_fn_map())
