"""What a Cell's backward (pre-)hook returns, checked as MindSpore 2.10 checks it (``sporax.nn.cell_hooks``):
None keeps the gradients; else a Tensor or a tuple of Tensors, one per gradient, each of the very shape and dtype
of the one it replaces (MindSpore's TypeError/ValueError first lines)."""
import jax
import jax.numpy as jnp

from sporax.core.tensor import Tensor


def _ms_type(shape, dtype):
    """A gradient's type as MindSpore 2.10 writes it in a hook's error ("Tensor shape:[[const vector]{2}]Float32")."""
    return f"Tensor shape:[[const vector]{{{', '.join(map(str, shape))}}}]{Tensor._wrap(jnp.zeros((), dtype)).dtype}"


def gradient_array(value, like, cell, kind):
    """A hook's new gradient for one whose template is ``like``: a Tensor of its very shape and dtype."""
    function = f"hook_{kind.replace(' ', '_')}_grad"
    if not isinstance(value, Tensor):
        raise TypeError(f"The output type of function: {function} should be a tensor but got "
                        f"{type(value).__name__}. (The {kind} hook of {type(cell).__name__} returns None or new "
                        "gradients: a Tensor, or a tuple of Tensors, one per gradient it received.)")
    array = value._value
    if like.dtype == jax.dtypes.float0:
        return None  # an integer value carries no gradient
    if tuple(array.shape) != tuple(like.shape) or array.dtype != like.dtype:
        raise ValueError(f"The output type of function: {function} is not consistent with the expected, it should "
                         f"be {_ms_type(like.shape, like.dtype)}, but got {_ms_type(array.shape, array.dtype)}. "
                         f"(The {kind} hook of {type(cell).__name__} must return each gradient in the shape and "
                         "dtype of the one it replaces.)")
    return array


def replacement(result, current, likes, cell, kind, what):
    """Apply a backward (pre) hook's result: None keeps ``current``; a Tensor or a tuple of Tensors replaces it,
    each of the shape and dtype of its template in ``likes`` (MindSpore 2.10's checks and messages).
    A gradient MindSpore gives as None takes a new one for an output; an input's stays None."""
    if result is None:
        return current
    if isinstance(result, Tensor):
        result = (result,)
    if not isinstance(result, tuple):
        raise TypeError(f"The output type of function: hook_{kind.replace(' ', '_')}_grad should be a tensor but "
                        f"got {type(result).__name__}. (The {kind} hook of {type(cell).__name__} returns None, a "
                        "Tensor or a tuple of Tensors.)")
    if len(result) != len(current):
        raise TypeError(f"The {kind} hook return value size is {len(result)} not equal to expect {what} size "
                        f"{len(current)}. (The {kind} hook of {type(cell).__name__}.)")
    return tuple(old if (old is None and (new is None or like is None)) else gradient_array(new, like, cell, kind)
                 for new, old, like in zip(result, current, likes))
