"""Dict keys in compiled code, as MindSpore 2.10's graph checks them.

MindSpore's static graph looks a key up while compiling: a key the dict lacks raises ValueError
``The key c does not exist in the dict:{'a': 1, 'b': 2}`` (not Python's KeyError), and a key whose value
is known only at run time -- a traced Tensor -- raises RuntimeError, whether it builds a dict
(``{x: 1}``) or indexes one (``d[x]``). A Tensor built from constants in the graph is a valid key. PyNative
runs plain Python, so none of this applies there.

``DictKeys`` rewrites a converted function's subscripts (``value[index]``) and computed dict-display keys
into calls of ``subscript`` and ``dict_key``; anything but a dict goes to Python's own indexing (a list or
tuple index out of range raises MindSpore's IndexError,
``list_getitem evaluator index should be in range[-2, 2), but got 5.``).

Example:
    >>> subscript({'a': 1}, 'c')
    Traceback (most recent call last):
    ValueError: The key c does not exist in the dict:{'a': 1} (...)
"""
import ast

import jax

from sporax.core.tensor import Tensor
from sporax.graph.control_flow.analysis import UserStatementsPass
from sporax.graph.control_flow.constant import known_value

# MindSpore 2.10's texts, which name the graph's internal evaluators
_BUILD_KEY = "make_dict evaluator key only supports string, number, type, none, constant tensor and tuple, but got ValueAny"
_LOOKUP_KEY = ("dict_getitem evaluator key only supports string, number, type, none, constant tensor and tuple, but "
               "got ValueAny")
_SEQUENCE_GETITEM = {list: "list_getitem", tuple: "TupleGetItem"}
_FIX = ("a dict key in GRAPH_MODE and ms.jit must be known while compiling: use a string, number or tuple key, or "
        "look the value up with a tensor operation (e.g. ops.gather over a stacked Tensor)")


def _traced(key):
    """Whether ``key`` holds a value known only when the compiled program runs."""
    if isinstance(key, tuple):
        return any(_traced(item) for item in key)
    if isinstance(key, Tensor):
        value = key._value
        return isinstance(value, jax.core.Tracer) and known_value(value) is None
    return isinstance(key, jax.core.Tracer)


def _text(value):
    """A value as MindSpore's graph prints it in a message (strings bare, bools lowercase)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        return "(" + ", ".join(_text(item) for item in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_text(item) for item in value) + "]"
    if isinstance(value, dict):
        return _dict_text(value)
    return repr(value)


def _holds_tensor(value):
    if isinstance(value, (tuple, list)):
        return any(_holds_tensor(item) for item in value)
    if isinstance(value, dict):
        return any(_holds_tensor(item) for item in value.values())
    return isinstance(value, (Tensor, jax.Array, jax.core.Tracer))


def _dict_text(mapping):
    # A dict holding a Tensor is an abstract value to MindSpore's graph: its message shows 'ValueAny'.
    if _holds_tensor(mapping):
        return "ValueAny"
    return "{" + ", ".join(f"'{_text(key)}': {_text(value)}" for key, value in mapping.items()) + "}"


def _is_a(value, class_name):
    """Whether ``value`` is an instance of the class ``class_name`` (nn's containers, which live above graph)."""
    return any(cls.__name__ == class_name for cls in type(value).__mro__)


def subscript(container, index):
    """``container[index]`` in compiled code: a dict lookup raises MindSpore's errors for a missing or traced key,
    a list or tuple index out of range MindSpore's IndexError, a string's its RuntimeError."""
    if not isinstance(container, dict):
        try:
            return container[index]
        except TypeError:
            if type(container) is not list or type(index) is not float:
                raise
            raise IndexError(f"list_getitem evaluator index should be an int64 number, but got AbstractScalar(Type: "
                             f"Float32, Value: {index:g}, Shape: NoShape)") from None
        except KeyError:
            if not _is_a(container, "CellDict"):
                raise
            raise ValueError(f"The key {_text(index)} does not exist in the dict:ValueAny (the CellDict has "
                             f"{', '.join(map(repr, container.keys()))})") from None
        except IndexError:
            if type(index) is int and _is_a(container, "CellList"):  # MindSpore's graph holds a CellList as a tuple
                size = len(container)
                raise IndexError(f"TupleGetItem evaluator index should be in range[{-size}, {size}), but got "
                                 f"{index}.") from None
            if type(index) is not int or type(container) not in (list, tuple, str):
                raise
            size = len(container)
            if type(container) is str:
                raise RuntimeError(f"String index out of range, expect:[{-size}, {size - 1}], but got {index}."
                                   ) from None
            evaluator = _SEQUENCE_GETITEM[type(container)]
            raise IndexError(f"{evaluator} evaluator index should be in range[{-size}, {size}), but got {index}."
                             ) from None
    if _traced(index):
        raise RuntimeError(f"{_LOOKUP_KEY} ({_FIX}).")
    try:
        return container[index]
    except KeyError:
        raise ValueError(f"The key {_text(index)} does not exist in the dict:{_dict_text(container)} (GRAPH_MODE and "
                         "ms.jit look keys up while compiling: check the key, or use dict.get(key, default))."
                         ) from None


def dict_key(key):
    """A computed key of a dict display in compiled code: a traced one, a list or a dict raises MindSpore's
    RuntimeError."""
    if _traced(key):
        raise RuntimeError(f"{_BUILD_KEY} ({_FIX}).")
    if isinstance(key, (list, dict)):
        raise RuntimeError(f"{_BUILD_KEY.rsplit(' ', 1)[0]} {_text(key)} ({_FIX}).")
    return key


def _runtime_call(runtime, name, args):
    return ast.Call(func=ast.Attribute(value=ast.Name(id=runtime, ctx=ast.Load()), attr=name, ctx=ast.Load()),
                    args=args, keywords=[])


def _plain_index(index):
    """Whether a subscript's index is an expression (``x[1:2]``, ``x[0, ::2]`` hold slices, which only a
    subscript can spell)."""
    if isinstance(index, ast.Slice):
        return False
    return not (isinstance(index, ast.Tuple) and any(isinstance(item, ast.Slice) for item in index.elts))


def has_dict_access(function_node):
    """True when the function reads an item with a constant or named index, or builds a dict display with a
    computed key (what ``DictKeys`` checks)."""
    for node in ast.walk(function_node):
        if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
                and isinstance(node.slice, (ast.Constant, ast.Name))):
            return True
        if isinstance(node, ast.Dict) and any(key is not None and not isinstance(key, ast.Constant)
                                              for key in node.keys):
            return True
    return False


class DictKeys(UserStatementsPass):
    """Item reads -> ``runtime.subscript``; computed dict-display keys -> ``runtime.dict_key``.

    Runs after ``ControlFlowRewriter``; stores (``d[k] = v``) keep Python's statement.
    """

    def visit_Call(self, node):
        function = node.func
        if isinstance(function, ast.Attribute) and function.attr == "inline_lambda" and \
                getattr(function.value, "id", None) == self.runtime:
            return node  # a lambda written in the code: converted on its own when called
        return self.generic_visit(node)

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or not _plain_index(node.slice):
            return node
        return ast.copy_location(_runtime_call(self.runtime, "subscript", [node.value, node.slice]), node)

    def visit_Dict(self, node):
        self.generic_visit(node)
        node.keys = [key if key is None or isinstance(key, ast.Constant) else
                     ast.copy_location(_runtime_call(self.runtime, "dict_key", [key]), key) for key in node.keys]
        return node
