"""A list method's arguments in compiled code, checked as MindSpore 2.10's graph checks them.

MindSpore's graph runs ``list.pop``/``insert``/``extend`` as its own sequence operations, whose errors
name them (``ListInplaceInsert``) or the graph's scalar types (``StringImm``); a wrong number of arguments is
its function-arity error. ``check`` raises those before Python's list method would raise its own.
"""
# The arguments each list method takes (MindSpore's arity error counts the list too)
_ARITY = {"append": 1, "extend": 1, "insert": 2, "remove": 1, "count": 1, "reverse": 0, "clear": 0}


def _immediate(value):
    """MindSpore's name of a constant scalar's type in its graph (``StringImm``, ``FP32Imm``)."""
    return {str: "StringImm", float: "FP32Imm", bool: "BoolImm", int: "Int64Imm"}.get(type(value),
                                                                                     type(value).__name__)


def _abstract(value):
    """MindSpore's ``AbstractScalar(...)`` text of a constant scalar."""
    kind = {bool: "Bool", int: "Int64", float: "Float32", str: "String"}.get(type(value), type(value).__name__)
    return f"AbstractScalar(Type: {kind}, Value: {value}, Shape: NoShape)"


def check(name, items, args, kwargs):
    """Raise MindSpore 2.10's error for ``items.name(*args, **kwargs)`` where its graph refuses the arguments."""
    expected = _ARITY.get(name)
    if expected is not None and len(args) != expected and not kwargs:
        raise TypeError(f"The parameters number of the function is {expected + 1}, but the number of provided "
                        f"arguments is {len(args) + 1}. (list.{name} takes {expected} argument(s).)")
    if name == "pop" and args:
        index = args[0]
        if not isinstance(index, int):
            raise TypeError(f"Integer argument expected, but got {_immediate(index)} type value: {index} "
                            "(list.pop takes an int index).")
        if not -len(items) <= index < len(items):
            raise IndexError(f"The pop index out of range. (index {index} of a list of {len(items)} items)")
    if name == "pop" and not args and not items:
        raise IndexError("The pop index out of range. (pop from an empty list)")
    if name == "insert" and len(args) == 2 and not isinstance(args[0], int):
        raise TypeError(f"The second input to ListInplaceInsert must be int scalar but got {_immediate(args[0])} "
                        f"(list.insert takes an int index, got {args[0]!r}).")
    if name == "extend" and len(args) == 1 and isinstance(args[0], (int, float, bool, str)):
        raise TypeError(f"For ListInplaceExtend, the second input should be tuple or list but got: "
                        f"{_abstract(args[0])}")
