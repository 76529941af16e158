"""``mindspore.dataset.debug``: hooks that ``map`` runs between its operations in debug mode.

With ``dataset.config.set_debug_mode(True, debug_hook_list)``, every later ``map`` runs a copy
of each hook on the rows before its first operation and after each operation; a hook prints
(or inspects) the columns and hands them on unchanged. A hook may also be placed among a map's
operations by hand, where it runs like any operation (without the header line).
"""
import abc
import copy

import numpy as np


class DebugHook(abc.ABC):
    """Base class of a dataset debug hook: override ``compute`` to look at the columns.

    Args:
        prev_op_name (str, optional): the operation the hook follows (set by ``map``). Default: ``None``.

    Inputs:
        - ***args** - the columns of one row.

    Outputs:
        tuple, the same columns, unchanged.

    Examples:
        >>> import sporax.dataset as ds
        >>> from sporax.dataset.core import debug_hooks
        >>> class Shapes(debug_hooks.DebugHook):
        ...     def compute(self, *args):
        ...         print([column.shape for column in args[0]])
        >>> ds.config.set_debug_mode(True, debug_hook_list=[Shapes()])
    """

    def __init__(self, prev_op_name=None):
        self.prev_op_name = prev_op_name
        self.is_first_op = None

    def __call__(self, *args):
        if self.prev_op_name:  # a hook placed by hand has no operation name: no header
            side = "INPUT" if self.is_first_op else "OUTPUT"
            print(f"[Dataset debugger] Print the [{side}] of the operation [{self.prev_op_name}].", flush=True)
        # compute sees the row as one tuple (MindSpore's signature), and the row goes on unchanged
        self.compute(args)
        return args

    @abc.abstractmethod
    def compute(self, *args):
        """Look at the columns: ``args[0]`` is the tuple of the row's columns."""
        raise RuntimeError("compute() is not overridden in subclass of class DebugHook.")

    def set_previous_op_name(self, prev_op_name):
        """Name the operation this hook follows (printed in its header)."""
        self.prev_op_name = prev_op_name

    def set_is_first(self, is_first_op):
        """Whether the hook runs before the map's first operation (prints INPUT, not OUTPUT)."""
        self.is_first_op = is_first_op


def _describe(column):
    """dtype and shape of an array, size of a PIL image, length of a sized object; else nothing."""
    if isinstance(column, np.ndarray):
        return f"The dtype is [{column.dtype}]. The shape is [{column.shape}]."
    if type(column).__module__.startswith("PIL.") and hasattr(column, "size"):
        return f"The type is [{type(column)}]. The shape is [{column.size}]."
    if hasattr(column, "__len__"):
        return f"The type is [{type(column)}]. The size is [{len(column)}]."
    return ""


class _ColumnLines(DebugHook):
    """A hook printing one line per column of the row: ``Column i. <text>``, the text from the subclass's
    ``_text(column)``."""

    def compute(self, *args):
        """Print one line per column of the row ``args[0]``."""
        for index, column in enumerate(args[0]):
            print(f"Column {index}. {self._text(column)}", flush=True)
        return args


class PrintMetaDataHook(_ColumnLines):
    """The default hook: prints each column's type and shape.

    Examples:
        >>> import sporax.dataset as ds
        >>> from sporax.dataset.core import debug_hooks
        >>> ds.config.set_debug_mode(True, debug_hook_list=[debug_hooks.PrintMetaDataHook()])
    """

    def _text(self, column):
        return _describe(column)


class PrintDataHook(_ColumnLines):
    """Prints each column's value.

    Examples:
        >>> import sporax.dataset as ds
        >>> from sporax.dataset.core import debug_hooks
        >>> ds.config.set_debug_mode(True, debug_hook_list=[debug_hooks.PrintDataHook()])
    """

    def _text(self, column):
        return f"The data is [{column}]."


def checked_hook_list(debug_hook_list):
    """``set_debug_mode``'s hook list, checked; ``None`` means one PrintMetaDataHook."""
    if debug_hook_list is None:
        return [PrintMetaDataHook()]
    if not isinstance(debug_hook_list, list):
        raise TypeError("debug_hook_list is not a list.")
    for hook in debug_hook_list:
        if not isinstance(hook, DebugHook):
            raise TypeError("All items in debug_hook_list must be of type DebugHook.")
    return debug_hook_list


def _operation_name(op):
    return getattr(op, "__name__", None) or type(op).__name__


def with_hooks(operations, hooks):
    """``operations`` with copies of ``hooks`` before the first and after every operation.

    Each inserted hook is a copy, so a hook holding state keeps it per place.
    """
    def placed(after, first):
        copies = []
        for hook in hooks:
            hook = copy.deepcopy(hook)
            hook.set_previous_op_name(_operation_name(after))
            hook.set_is_first(first)
            copies.append(hook)
        return copies

    result = placed(operations[0], True)
    for op in operations:
        result.append(op)
        result.extend(placed(op, False))
    return result
