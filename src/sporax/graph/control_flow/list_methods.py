"""A list method's arguments in compiled code, checked as MindSpore 2.10's graph checks them.

MindSpore's graph runs ``list.pop``/``insert``/``extend`` as its own sequence operations, whose errors
name them (``ListInplaceInsert``) or the graph's scalar types (``StringImm``); a wrong number of arguments is
its function-arity error. ``check`` raises those before Python's list method would raise its own.

A list that ``insert``/``extend``/``pop``/``reverse`` changed in place becomes a run-time list in MindSpore's
graph: its ``index``/``count`` then give int64 Tensors (``counted``), where a constant list gives ints.
``d.pop(k)`` follows its graph's statement rules (``dict_pop``).
"""
import dis

import numpy as np

# The arguments each list method takes (MindSpore's arity error counts the list too)
_SHARED_CHANGES = frozenset(("insert", "extend", "pop", "reverse"))
_RUN_TIME = {}  # id -> a list changed in place (held, so no other list takes its id)
_MAX_RUN_TIME = 4096
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


def check_dict_update(kwargs):
    """MindSpore 2.10's graph ``dict.update`` takes the items as one positional dict: keywords are its call error."""
    if kwargs:
        raise RuntimeError(f"Got an unexpected keyword argument '{next(iter(kwargs))}' (dict.update in GRAPH_MODE "
                           "and ms.jit takes one dict: d.update({'key': value}).)")


def note(name, items):
    """Note ``items`` as a run-time list after ``items.name(...)`` changed it in place."""
    if name in _SHARED_CHANGES:
        if len(_RUN_TIME) >= _MAX_RUN_TIME:
            _RUN_TIME.clear()
        _RUN_TIME[id(items)] = items


def carry(source, copy):
    """``copy`` (a changed copy of ``source``: ``append``, ``clear``) is a run-time list where ``source`` was."""
    if _RUN_TIME.get(id(source)) is source:
        _RUN_TIME[id(copy)] = copy


def counted(name, items, result):
    """``items.index``/``items.count``'s ``result`` as MindSpore's graph gives it: an int64 Tensor for a list
    changed in place (``l.insert(0, 9); l.index(9)``), the int for a constant one."""
    if name in ("index", "count") and _RUN_TIME.get(id(items)) is items and isinstance(result, int):
        from sporax.core.tensor import Tensor  # core imports graph modules: import when called
        return Tensor(np.array(result, np.int64))
    return result


_GRAPH_SCALARS = {bool: "Bool", int: "Int64", float: "Float32", str: "String"}


def check_dict_pop(value):
    """MindSpore 2.10's graph unpacks what ``d.pop(key)`` gives as a (dict, value) pair, so a scalar popped from a
    dict raises its TupleGetItem error."""
    kind = _GRAPH_SCALARS.get(type(value))
    if kind is not None:
        raise TypeError(f"For 'TupleGetItem', input[0] should be Sequence, but got {kind}. (dict.pop of a scalar "
                        "value in compiled code; read it with d[key] and build the dict without it instead.)")




_LOADS = ("LOAD_FAST", "LOAD_DEREF", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_CLASSDEREF")
_STORES = ("STORE_FAST", "STORE_DEREF", "STORE_GLOBAL", "STORE_NAME")


def dict_pop(pop, frame, args, kwargs):
    """``d.pop(k)`` in compiled code, called from ``frame``, as MindSpore 2.10's graph runs it.

    Its graph takes a statement ``t = d.pop(k)`` (or ``d.pop(k)`` alone) as unpacking a (dict, item) pair into
    ``d`` and ``t``: a scalar item raises ``check_dict_pop``'s TypeError once either is read, and nothing when
    neither is. A pop inside a larger expression (``return d.pop(k), d``, ``x + d.pop(k)``) gives the item and
    leaves ``d`` as it was (all recorded)."""
    instructions = list(dis.get_instructions(frame.f_code))
    # f_lasti may point into the call's inline cache: the next instruction is the first one after it
    after = next((index for index, instruction in enumerate(instructions) if instruction.offset > frame.f_lasti),
                 len(instructions))
    following = instructions[after] if after < len(instructions) else None
    if following is None or following.opname not in ("POP_TOP", *_STORES):
        items = pop.__self__
        return items[args[0]] if args and args[0] in items or len(args) < 2 else args[1]
    result = pop(*args, **kwargs)
    pops = [index for index in range(after) if instructions[index].argval == "pop"
            and instructions[index].opname in ("LOAD_ATTR", "LOAD_METHOD") and index > 0
            and instructions[index - 1].opname in _LOADS]
    read = {instructions[pops[-1] - 1].argval} if pops else set()
    if following.opname in _STORES:
        read.add(following.argval)
    if any(instruction.opname in _LOADS and instruction.argval in read for instruction in instructions[after + 1:]):
        check_dict_pop(result)
    return result
