"""Python's sequence builtins and membership as MindSpore's static graph evaluates them in converted code.

Its graph has no iterators: ``map``/``zip``/``range``/``enumerate``/``filter`` give tuples or lists (Python's
iterators only over NumPy arrays, which its graph runs in Python), ``x in (...)`` finds a Tensor by identity
or by shape and values, ``len`` of a number raises (as ``max``/``min`` of Tensors or of nothing,
``isinstance`` of a non-type and ``int``/``float``/``bool`` of a Tensor of many elements do, in MindSpore's
words), and a dict's ``keys()``/``values()``/``items()`` are
snapshots. ``runtime.call`` looks the builtins up in ``SEQUENCE_BUILTINS``; the transformer emits the other
calls (``runtime.contains``, ``loop_iterable``, ``has_key``, ``dict_view``).
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor


def _sequence_of(first, items):
    return list(items) if isinstance(first, list) else tuple(items)


def _enumerate_start(start):
    if not isinstance(start, int):
        # MindSpore 2.10's text, quotes included (its graph compiler raises it so)
        raise TypeError(f"'For 'enumerate', the 'start' should be a const int number, but got {start}.'\n\n"
                        "Pass a Python int as 'start'.")
    return start


def _enumerable(sequence):
    if sequence is None or isinstance(sequence, (int, float)):
        raise TypeError(f"'For 'enumerate', the 'first input' should be tuple or list or tensor, but got "
                        f"{type(sequence)}.'")
    return sequence


def checked_range(*bounds):
    """``range``'s Python-number bounds, with MindSpore's errors for a float bound and a zero step."""
    for position, bound in enumerate(bounds):
        if isinstance(bound, float):
            raise TypeError(f"For 'make_range', the {position}th input should be a int scalar but got "
                            f"AbstractScalar(Type: Float32, Value: {bound:g}, Shape: NoShape)")
    if len(bounds) == 3 and isinstance(bounds[2], int) and bounds[2] == 0:
        raise RuntimeError("For 'range', the argument 'step' could not be 0.")
    return bounds


def _same_item(item, element):
    """Whether a sequence item matches ``element`` for ``in``: Tensors (or arrays) of one shape with all values
    equal, a number and a one-element Tensor item by value, anything else by Python's ``==``; a Tensor element
    matches no number (MindSpore's graph: ``Tensor(2.0) in (2, 3)`` is False). A Python bool, or a bool Tensor
    while values are traced."""
    if isinstance(item, (Tensor, np.ndarray)) and isinstance(element, (Tensor, np.ndarray)):
        if tuple(item.shape) != tuple(element.shape):
            return False
        left = item._value if isinstance(item, Tensor) else item
        right = element._value if isinstance(element, Tensor) else element
        return jnp.all(jnp.asarray(left) == jnp.asarray(right))
    if isinstance(item, Tensor) and isinstance(element, (bool, int, float)):
        if item.size != 1:
            # MindSpore 2.10's text: its graph compares the number with every item as Python's 'in' does
            raise ValueError(f"The tensor should have only one element, but got {item.size}, more than one element "
                             f"is ambiguous. ({element!r} in a sequence holding a Tensor of shape {tuple(item.shape)}"
                             ": compare with (t == value).any() instead.)")
        return jnp.asarray(item._value).reshape(()) == element
    if isinstance(item, Tensor) or isinstance(element, Tensor):
        return False
    return bool(item == element)


def contains(sequence, element, positive=True):
    """``element in sequence`` (``positive``) or ``not in`` in converted code: as MindSpore's graph, a Tensor
    is found in a tuple or list by identity, or by shape and values (Python's ``in`` would ask for the truth
    value of a many-element comparison), and the answer for a Tensor element is a bool Tensor."""
    if not isinstance(sequence, (tuple, list)) or not (
            isinstance(element, Tensor) or any(isinstance(item, Tensor) for item in sequence)):
        return (element in sequence) if positive else (element not in sequence)
    found = False
    for item in sequence:
        if item is element:
            found = True
            break
        match = _same_item(item, element)
        if isinstance(match, jax.core.Tracer):
            found = match if found is False else jnp.logical_or(found, match)
        elif bool(match):
            found = True
            break
    if isinstance(found, jax.core.Tracer) or isinstance(element, Tensor):
        found = jnp.asarray(found, dtype=bool)
        return Tensor._wrap(found if positive else jnp.logical_not(found))
    return found if positive else not found


def loop_iterable(function, *args, **kwargs):
    """The iterable of a ``for`` loop over ``enumerate(...)`` in converted code: Python's lazy one, with the
    'start' check of MindSpore's graph (``function`` is what the name ``enumerate`` holds there)."""
    if function is enumerate:
        start = kwargs.pop("start", args[1] if len(args) > 1 else 0)
        return enumerate(_enumerable(args[0]), _enumerate_start(start), **kwargs)
    return function(*args, **kwargs)


_GRAPH_NUMBER_TYPES = ((bool, "Bool"), (int, "Int"), (float, "Float"))


def _length(value):
    """``len`` in converted code: of a number, MindSpore's graph raises AttributeError naming its scalar type."""
    if not isinstance(value, Tensor):
        for python_type, graph_name in _GRAPH_NUMBER_TYPES:
            if isinstance(value, python_type):
                raise AttributeError(f"'{graph_name}' object has no attribute '__len__'. len() takes a sequence, a "
                                     "dict, a string or a Tensor of rank 1 or more.")
    return len(value)


def _extreme(function, args, kwargs):
    """``max``/``min`` in converted code: MindSpore's graph runs them in Python and words their errors quoted."""
    if kwargs:  # MindSpore's graph max/min take the values only
        raise RuntimeError(f"Got an unexpected keyword argument '{next(iter(kwargs))}' ({function.__name__}() in "
                           f"GRAPH_MODE and ms.jit takes no key= or default=: sort or filter the values first.)")
    if len(args) > 1 and any(isinstance(value, Tensor) and value.size > 1 for value in args):
        raise ValueError("'The truth value of an array with more than one element is ambiguous.' "
                         f"({function.__name__}() of Tensors compares them whole; for the elementwise "
                         f"{function.__name__}imum use ops.{function.__name__}imum.)")
    if len(args) == 1 and isinstance(args[0], (tuple, list, dict, str)) and not args[0]:
        raise ValueError(f"'{function.__name__}() arg is an empty sequence.'")
    return function(*args, **kwargs)


def _scalar(function, args, kwargs):
    """``int``/``float``/``bool`` of a Tensor in converted code: MindSpore's graph converts one of shape () or (1,)
    only, and words the error its own way."""
    if len(args) == 1 and not kwargs and isinstance(args[0], Tensor):
        shape = tuple(args[0].shape)
        if function is bool and args[0].size > 1:
            raise ValueError("'The truth value of an array with more than one element is ambiguous.' (bool() of a "
                             "Tensor needs one element; reduce it first, e.g. with .all() or .any().)")
        if function is not bool and (args[0].size != 1 or len(shape) > 1):
            raise ValueError(f"'Can not convert Tensor with more than one element to Scalar, while the data's shape "
                             f"is{' ' if function is int else ''}: ({', '.join(str(dim) for dim in shape)})' "
                             f"({function.__name__}() takes a Tensor of shape () or (1,).)")
    return function(*args, **kwargs)


def _isinstance(value, kinds):
    """``isinstance`` in converted code: a second argument that is no type raises MindSpore's TypeError."""
    try:
        return isinstance(value, kinds)
    except TypeError:
        raise TypeError("isinstance() arg 2 must be a type or tuple of types.") from None


def _over_arrays(sequences):
    return any(isinstance(sequence, np.ndarray) for sequence in sequences)


def _filter_function(function):
    """filter's predicate: MindSpore's graph calls it on each item, so ``filter(None, ...)`` (Python's truth
    test) is its 'not callable' ValueError."""
    if function is None:
        raise ValueError("The object is not callable. Please check code. (filter(None, ...) in GRAPH_MODE and "
                         "ms.jit calls None on each item: pass a function, e.g. filter(lambda item: item, items).)")
    return function


# MindSpore's static graph evaluates these builtins into sequences (its graph has no iterators):
# map and zip over tuples give tuples, over lists lists; range and enumerate give tuples; filter a list.
# Over a NumPy array its graph runs them in Python instead and returns Python's map/zip iterator.
# len, max, min, isinstance, int, float and bool: Python's result, MindSpore's errors.
SEQUENCE_BUILTINS = {
    map: lambda function, first, *rest: map(function, first, *rest) if _over_arrays((first,) + rest) else
    _sequence_of(first, map(function, first, *rest)),
    zip: lambda *sequences: zip(*sequences) if _over_arrays(sequences) else tuple(zip(*sequences)),
    range: lambda *bounds: tuple(range(*checked_range(*bounds))),
    enumerate: lambda sequence, start=0: tuple(enumerate(_enumerable(sequence), _enumerate_start(start))),
    filter: lambda function, sequence: list(filter(_filter_function(function), sequence)),
    len: lambda value: _length(value),
    max: lambda *args, **kwargs: _extreme(max, args, kwargs),
    min: lambda *args, **kwargs: _extreme(min, args, kwargs),
    isinstance: _isinstance,
    int: lambda *args, **kwargs: _scalar(int, args, kwargs),
    float: lambda *args, **kwargs: _scalar(float, args, kwargs),
    bool: lambda *args, **kwargs: _scalar(bool, args, kwargs),
}


def has_key(mapping, *args):
    """``mapping.has_key(key)``: MindSpore's graph gives a dict this method (``key in mapping``)."""
    if not isinstance(mapping, dict):
        return mapping.has_key(*args)
    if len(args) != 1:
        raise TypeError(f"dict.has_key() takes exactly one argument (the key), but got {len(args)}.")
    return args[0] in mapping


def dict_view(mapping, method):
    """``d.keys()``, ``d.values()``, ``d.items()`` in compiled code: MindSpore's graph returns a snapshot,
    tuples for keys and values and a list of pairs for items, not a live view of the dict."""
    view = getattr(mapping, method)()
    if not isinstance(mapping, dict):
        return view
    return list(view) if method == "items" else tuple(view)
