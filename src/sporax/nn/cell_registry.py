"""How a Cell names and registers what is assigned to it (MindSpore's ``Cell.__setattr__`` rules).

MindSpore names a Parameter after the attribute path that reaches it, and it does so *when the
Cell tree is assembled*: assigning a child Cell under ``name`` (in a Cell with ``auto_prefix``)
renames every Parameter below it to ``name.<path inside the child>``. A Parameter assigned
directly keeps a name the user gave and takes the attribute name otherwise. Plain Python lists
of Cells or Parameters register nothing. These helpers hold those rules so ``cell.py`` stays
about the Cell object itself.
"""
import numbers
import re
import sys

import jax
import numpy as np

from sporax.core import context
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter, ParameterTuple, _Buffer, framework_renames
from sporax.core.tensor import Tensor
from sporax.state import scope
from sporax.state.assign import set_parameter
from sporax.state.discovery import structure_changed, training_changed

# A Parameter made without a name is called ``Parameter#N``; a Cell renames it on assignment.
_AUTO_NAME = re.compile(r"^Parameter(#\d+)?$")


def has_automatic_name(parameter):
    """Whether ``parameter`` still has the name Parameter() gave it (the user chose none)."""
    return _AUTO_NAME.match(parameter.name) is not None


def not_initialised_error(cell, name):
    return AttributeError(
        f"{type(cell).__name__}: cannot use '{name}' before Cell.__init__() has run. Call "
        f"super().__init__() at the start of {type(cell).__name__}.__init__, before assigning "
        "layers or Parameters.")


def missing_attribute_error(cell, name):
    """The AttributeError of ``cell.<name>`` that names nothing the Cell holds."""
    if scope.in_compiled_trace():
        # MindSpore's graph compiler resolves self.<name> as a class member of the Cell's namespace and
        # words the miss that way (the number is the Cell object's id).
        cls = type(cell)
        return AttributeError(f"ClassMember: 'Namespace:{cls.__module__}..<{cls.__name__}::{id(cell)}>' object "
                              f"has no attribute '{name}'")
    return AttributeError(f"The '{type(cell).__name__}' object has no attribute '{name}'.")


def forget_compiled(state):
    # A compiled program of this Cell (GRAPH_MODE) was traced with the old tree, and any
    # enclosing compiled call or gradient discovered its Parameters from the old tree too.
    compiled = state.get("_sporax_compiled")
    if compiled is not None:
        compiled.invalidate()
    structure_changed()


def _class_defines(cell, name):
    """Whether the Cell's class defines ``name`` (a method, a property, a class attribute): MindSpore inserts a child
    Cell only under a name it does not. A layer's inner Primitive is an instance attribute in MindSpore: not counted."""
    if not hasattr(type(cell), name):
        return False
    return not getattr(getattr(type(cell), name), "instance_attribute_in_mindspore", False)


def set_attribute(cell, name, value):
    """Register ``value`` under ``name`` on ``cell`` following MindSpore's rules."""
    from sporax.nn.cell import Cell

    state = cell.__dict__
    if name == "training":
        training_changed()
    params = state.get("_params")
    cells = state.get("_cells")
    if isinstance(value, (Parameter, Cell)):
        forget_compiled(state)
    if isinstance(value, Parameter):
        if params is None:
            raise not_initialised_error(cell, name)
        if has_automatic_name(value):
            value.name = name
        state.pop(name, None)
        if cells is not None and name in cells:
            del cells[name]
        params[name] = value
        return
    if isinstance(value, Cell):
        if cells is None:
            raise not_initialised_error(cell, name)
        state.pop(name, None)
        if name in params:
            del params[name]
        if name not in cells and _class_defines(cell, name):
            # A KeyError prints its message quoted, so it stays MindSpore's own
            raise KeyError(f"For 'insert_child_to_cell', the {name} child cell already exists in the network."
                           "Cannot insert another child cell with the same name.")
        if state["_auto_prefix"]:
            value.update_parameters_name(name + ".")
        cells[name] = value
        return
    if isinstance(value, ParameterTuple):
        if params is None:
            raise not_initialised_error(cell, name)
        forget_compiled(state)
        # The tuple stays an ordinary attribute; its Parameters join the Cell under their own
        # names (an optimizer holding the network's weights lists them this way).
        for parameter in value:
            params.setdefault(parameter.name, parameter)
        object.__setattr__(cell, name, value)
        return
    buffers = state.get("_buffers")
    if isinstance(value, _Buffer) and buffers is not None and name not in buffers:
        cell.register_buffer(name, value, value.persistent)
        return
    if buffers is not None and name in buffers:
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"Buffer '{name}' already exists in network, can not assign this type: "
                            f"'{type(value)}' as a buffer.")
        buffers[name] = value
        return
    if params is not None and name in params:
        if isinstance(value, Tensor) and params[name] is not None:
            set_parameter(params[name], value)
            return
        if value is None:
            params[name] = None
            return
        if isinstance(value, numbers.Number) and params[name] is not None and scope.in_compiled_trace():
            # MindSpore's graph compiler turns `self.param = 0` inside construct into an assignment
            # (mindcv's GradientAccumulation resets its step counter so); PyNative raises, as below.
            parameter = params[name]
            parameter.set_data(Tensor(np.asarray(value, mstype.to_numpy_dtype(parameter.dtype))))
            return
        raise TypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                        f"'{type(value)}' as a parameter.")
    if cells is not None and name in cells:
        if value is None:
            cells[name] = None
            return
        raise TypeError(f"Sub cell '{name}' already exists in network, can not assign this type: "
                        f"'{type(value)}' as a cell.")
    if (not name.startswith("_") and scope.in_compiled_trace() and context.jit_syntax_level() != context.LAX
            and not _initialising(cell)):
        _refuse_attribute_write(cell, name)
    if isinstance(value, Tensor) and isinstance(value._array, jax.core.Tracer):
        scope.note_attribute_write(cell, name)  # its run-time value is set after the program runs
    object.__setattr__(cell, name, value)


def _initialising(cell):
    """True while ``cell``'s own ``__init__`` runs: a Cell created inside compiled code (a helper wrapping a function
    in a Cell, called from a construct) sets its attributes there, which MindSpore's graph allows at any level."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name == "__init__" and frame.f_locals.get("self") is cell:
            return True
        frame = frame.f_back
    return False


def _refuse_attribute_write(cell, name):
    """MindSpore 2.10's graph below LAX (STRICT, COMPATIBLE) writes only Parameter attributes of a Cell."""
    fix = ("Make it a Parameter, or set the context's or the Cell's jit_syntax_level to mindspore.LAX "
           "(MS_DEV_JIT_SYNTAX_LEVEL=2).")
    try:
        old = object.__getattribute__(cell, name)
    except AttributeError:
        raise AttributeError(f"The '{type(cell).__name__}' object has no attribute '{name}'. Compiled code below "
                             f"the LAX syntax level cannot add an attribute to a Cell. {fix}") from None
    raise TypeError(f"In JIT strict mode, if need to modify a member attribute of a class with self.{name}, the "
                    f"member attribute must be of the Parameter type. But got '{old}' with type "
                    f"'{type(old).__name__}'. {fix}")


def container_prefix(cells):
    """The name prefix a container's children currently carry (``'net.layers.'`` or ``''``).

    A container does not know where it sits in the tree, so (as MindSpore does) it reads the
    prefix off the name of the first Parameter of its first child that has one: the part before
    that child's key. Where the key occurs more than once in that name, the second child's
    Parameter name must confirm the position; without a confirmation the last occurrence wins.
    MindSpore's checkpoints carry the names this gives, quirks included: an empty CellList that
    received ``BasicLayer`` children (each holding ``blocks.0...``) names the second child's
    Parameters ``0.blocks.1.blocks.0...``, and loading those checkpoints needs the same names.
    """
    found = []
    for key, child in cells.items():
        if child is None:
            continue
        first = next(iter(child.parameters_and_names()), None)
        if first is None:
            continue
        found.append((key, first[1].name))
        if len(found) == 2:
            break
    if not found:
        return ""
    first_key, first_name = found[0]
    second_parts = found[1][1].split(".") if len(found) == 2 else None
    prefix = ""
    parts = first_name.split(".")
    for index, part in enumerate(parts):
        if part != first_key:
            continue
        prefix = ".".join(parts[:index]) + "." if index else ""
        if second_parts is not None and index < len(second_parts) and second_parts[index] == found[1][0]:
            break
    return prefix


def check_child_name(method, child_name):
    if not isinstance(child_name, str) or not child_name or "." in child_name:
        raise KeyError(f"For '{method}', the parameter 'child_name' can not be None and can not contain "
                       f"'.', but got {child_name!r}.")


def check_child_cell(method, child_cell):
    from sporax.nn.cell import Cell

    if child_cell is not None and not isinstance(child_cell, Cell):
        raise TypeError(f"For '{method}', the argument 'child_cell' must be 'Cell' if not None, but got "
                        f"type {type(child_cell)}.")


def rename_duplicates_on_first_call(cell):
    """On a Cell's first call, MindSpore renames every Parameter below it to its attribute path
    when two of them share a name (two CellLists each holding a ``0.weight``), so checkpoints
    and optimizers see distinct names; otherwise names are left as they are."""
    cell.__dict__["_names_checked"] = True
    names = [parameter.name for parameter in cell.get_parameters()]
    if len(set(names)) < len(names):
        with framework_renames():
            cell.update_parameters_name()
