"""Creating instances in compiled code, as MindSpore 2.10's graph refuses them.

Recorded on MindSpore 2.10 (CPU, ``ms.jit`` and a GRAPH_MODE ``construct``):

* ``Parameter(...)`` raises ValueError: a Parameter is created outside, in ``__init__``;
* a ``@jit_class`` instance built from a value known only at run time (a traced Tensor argument, by position or
  keyword, or one computed from it) raises TypeError; constants (a Python number, ``x.shape[0]``, a Tensor built
  from constants) are fine. A plain class takes any argument.

``check(function, args, kwargs)`` runs before ``runtime.call`` calls a class; ``creates_instances`` tells the
converter that a function calls something spelled like a class (``Name(...)``, ``module.Name(...)``), so that
such a function is converted and its calls reach ``check``.
"""
import ast

import jax

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.graph.control_flow.constant import known_value
from sporax.state.scope import in_compiled_trace

_PARAMETER_CLASS = "mindspore.common.parameter.Parameter"
# MindSpore's names of the element types in an abstract value's text
_ELEMENT_TYPES = {"bool": "Bool", "bfloat16": "BFloat16", "complex64": "Complex64", "complex128": "Complex128"}


def creates_instances(function_node):
    """Whether the function calls a name that starts with a capital letter (a class, by Python's convention)."""
    for node in ast.walk(function_node):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
            if name[:1].isupper():
                return True
    return False


def _variable(value):
    """Whether ``value`` is a Tensor whose value only the running program knows."""
    if not isinstance(value, Tensor) or isinstance(value, Parameter):
        return False
    array = value._array
    return isinstance(array, jax.core.Tracer) and known_value(array) is None


def _element_type(dtype):
    name = str(dtype)
    if name in _ELEMENT_TYPES:
        return _ELEMENT_TYPES[name]
    for prefix in ("uint", "int", "float"):
        if name.startswith(prefix):
            return prefix[0].upper() + prefix[1:] + name[len(prefix):] if prefix != "uint" else "UInt" + name[4:]
    return name


def abstract_tensor(tensor):
    """MindSpore's text of a run-time Tensor value (``AbstractTensor(shape: (3), element: ...)``)."""
    shape = ", ".join(str(size) for size in tensor.shape)
    return (f"AbstractTensor(shape: ({shape}), element: AbstractScalar(Type: {_element_type(tensor._array.dtype)}, "
            "Value: ValueAny, Shape: NoShape), value: ValueAny)")


def check(function, args, kwargs):
    """Raise MindSpore's error for creating an instance of the class ``function`` in compiled code."""
    if not isinstance(function, type) or not in_compiled_trace():
        return
    if issubclass(function, Parameter):
        raise ValueError(f"Failed to compile in GRAPH_MODE because creating class '{_PARAMETER_CLASS}' instances is "
                         f"not supported in 'construct' or @jit decorated function. Try to create class "
                         f"'{_PARAMETER_CLASS}' instances external such as initialized in the method '__init__' before "
                         "assigning.")
    if not getattr(function, "__ms_class__", False):
        return
    inputs = [(None, value) for value in args] + list(kwargs.items())
    for index, (key, value) in enumerate(inputs):
        if _variable(value):
            text = abstract_tensor(value)
            if key is not None:
                text = f"AbstractKeywordArg(key: {key}, value: {text})"
            raise TypeError(f"When creating an instance of '{function.__name__}', all arguments are required to be "
                            f"constants, but input {index} is a variable, which is {text}. (A @jit_class instance "
                            "is built while compiling: create it outside, or pass the Tensor to its methods.)")
