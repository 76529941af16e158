"""Cell containers: ``SequentialCell``, ``CellList`` and ``CellDict``.

A container keys its children by position ('0', '1', ...) or by name, and renames their
Parameters to ``<container prefix><key>.<path>`` whenever a child arrives or moves, so the
names match the attribute paths of the finished network (``layer.0.weight``).
"""
from collections import OrderedDict

from sporax.core.parameter import framework_renames
from sporax.core.tensor import Tensor
from sporax.graph.control_flow.switch import SelectedCall, traced_index
from sporax.nn import cell_registry
from sporax.nn.cell import Cell


def _check_cell(owner, value):
    if not isinstance(value, Cell):
        raise TypeError(f"For '{owner}', each cell must be subclass of Cell, but got {type(value).__name__}.")


def _place(container, key, cell, prefix=None):
    """Put ``cell`` under ``key`` and give its Parameters the matching names."""
    if container._auto_prefix and cell is not None:
        if prefix is None:
            prefix = cell_registry.container_prefix(container._cells)
        cell.update_parameters_name(f"{prefix}{key}.")
    container._cells[key] = cell


def _renumber(container, cells, owner):
    """Re-key ``cells`` as '0', '1', ... keeping the prefix the current children carry."""
    prefix = cell_registry.container_prefix(container._cells)
    container._cells.clear()
    for index, cell in enumerate(cells):
        _check_cell(owner, cell)
        _place(container, str(index), cell, prefix)


def _selected(owner, index, cells):
    """``cells[index]`` for an index Tensor known only at run time (a call of it compiles to a switch), else
    None; a Tensor whose value is known becomes its int."""
    if not isinstance(index, Tensor):
        return None, index
    traced = traced_index(index)
    if traced is None:
        return None, int(index.asnumpy())
    return SelectedCall(cells, traced, owner), index


def _normalise_index(owner, index, length):
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"For '{owner}', the type of 'index' must be int, but got {type(index).__name__}.")
    if not -length <= index < length:
        raise IndexError(f"For '{owner}', the value of 'index' must be a number in range [{-length}, {length}), "
                         f"but got {index}.")
    return index % length


class _PositionalCells:
    """What ``SequentialCell`` and ``CellList`` share: children keyed '0', '1', ... that deleting renumbers."""

    _owner = None  # the container's MindSpore name, for errors

    def __delitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            del cells[index]
        else:
            del cells[_normalise_index(self._owner, index, len(self))]
        _renumber(self, cells, self._owner)

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def __bool__(self):
        return len(self._cells) > 0


class SequentialCell(_PositionalCells, Cell):
    """A Cell that runs its child Cells one after another, each on the previous one's output.

    Args:
        args (Union[Cell, list, OrderedDict]): the Cells, given one by one, as one list, or as one
            OrderedDict name -> Cell.

    Inputs:
        - **x** (Tensor) -- the input of the first Cell.

    Outputs:
        Tensor, the output of the last Cell.
    """

    _owner = "SequentialCell"

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (OrderedDict, dict)):
            for key, cell in args[0].items():
                _check_cell("SequentialCell", cell)
                _place(self, key, cell)
        elif len(args) == 1 and isinstance(args[0], list):
            for index, cell in enumerate(args[0]):
                _check_cell("SequentialCell", cell)
                _place(self, str(index), cell)
        else:
            for index, cell in enumerate(args):
                if not isinstance(cell, Cell):
                    raise TypeError(f"For 'SequentialCell', Cells must be list or orderedDict, or each argument "
                                    f"a Cell, but got {type(cell).__name__}.")
                _place(self, str(index), cell)

    def __getitem__(self, index):
        if isinstance(index, slice):
            keys = list(self._cells.keys())[index]
            with framework_renames():  # the new container renames the Parameters, also in compiled code (MindSpore)
                return type(self)(OrderedDict((key, self._cells[key]) for key in keys))
        if isinstance(index, str):
            raise TypeError(f"For 'SequentialCell', the type of 'index' must be int, but got {type(index).__name__}.")
        selected, index = _selected("SequentialCell", index, list(self._cells.values()))
        if selected is not None:
            return selected
        index = _normalise_index("SequentialCell", index, len(self))
        return list(self._cells.values())[index]

    def __setitem__(self, index, cell):
        _check_cell("SequentialCell", cell)
        index = _normalise_index("SequentialCell", index, len(self))
        _place(self, list(self._cells.keys())[index], cell)

    def append(self, cell):
        """Add ``cell`` at the end; returns self."""
        _check_cell("SequentialCell", cell)
        _place(self, str(len(self)), cell)
        return self

    @property
    def cell_list(self):
        """The child Cells in order, as a list (libraries iterate it, or reassign it after replacing
        entries of ``_cells``)."""
        return list(self._cells.values())

    @cell_list.setter
    def cell_list(self, cells):
        cells = list(cells)
        if len(cells) == len(self._cells) and all(a is b for a, b in zip(cells, self._cells.values())):
            return
        _renumber(self, cells, "SequentialCell")

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(_PositionalCells, Cell):
    """A list of Cells whose Parameters belong to the owning network (a plain list registers nothing).

    Args:
        args (list): the initial Cells. Default: empty.
    """

    _owner = "CellList"
    ensembles_under_vmap = True  # ``vmap(cell_list)`` is MindSpore's model ensembling (sporax.autodiff.transforms)

    def __init__(self, *args, **kwargs):
        super().__init__()
        if len(args) > 1:
            raise TypeError(f"For 'CellList', expected at most one argument (a list of Cells), got {len(args)}.")
        if args:
            self.extend(args[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            with framework_renames():  # the new CellList renames the Parameters, also in compiled code (MindSpore)
                return CellList(list(self._cells.values())[index])
        selected, index = _selected("CellList", index, list(self._cells.values()))
        if selected is not None:
            return selected
        index = _normalise_index("CellList", index, len(self))
        return self._cells[str(index)]

    def __setitem__(self, index, cell):
        _check_cell("CellList", cell)
        index = _normalise_index("CellList", index, len(self))
        _place(self, str(index), cell)

    def __iadd__(self, cells):
        self.extend(cells)
        return self

    def insert(self, index, cell):
        """Insert ``cell`` before position ``index``."""
        _check_cell("CellList", cell)
        cells = list(self._cells.values())
        length = len(cells)
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"For 'CellList.insert', the type of 'index' must be int, but got {type(index).__name__}.")
        index = max(0, min(length, index + length if index < 0 else index))
        prefix = cell_registry.container_prefix(self._cells)
        cells.insert(index, cell)
        self._cells.clear()
        for position, item in enumerate(cells):
            _place(self, str(position), item, prefix)

    def extend(self, cells):
        """Append every Cell of the list ``cells``; returns self."""
        if not isinstance(cells, list):
            raise TypeError("For 'CellList', the new cells wanted to append should be instance of list, but got "
                            f"{type(cells).__name__}.")
        prefix = cell_registry.container_prefix(self._cells)
        for cell in cells:
            _check_cell("CellList", cell)
            _place(self, str(len(self)), cell, prefix)
        return self

    def append(self, cell):
        """Add ``cell`` at the end."""
        _check_cell("CellList", cell)
        _place(self, str(len(self)), cell)

    def construct(self, *inputs):
        raise NotImplementedError("CellList is a container and cannot be called; iterate over it in the owning "
                                  "Cell's construct (for cell in self.layers: x = cell(x)).")


class CellDict(Cell):
    """A dict of Cells keyed by name, registered like attributes of the owning network.

    Args:
        args (Union[dict, OrderedDict, list]): the initial name -> Cell entries (or (name, Cell) pairs).
    """

    def __init__(self, *args, **kwargs):
        super().__init__()
        if len(args) > 1:
            raise TypeError(f"For 'CellDict', expected at most one argument (a dict of Cells), got {len(args)}.")
        if args and args[0] is not None:
            self.update(args[0])

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell):
        cell_registry.check_child_name("CellDict", key)
        _check_cell("CellDict", cell)
        _place(self, key, cell)

    def __delitem__(self, key):
        del self._cells[key]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def __contains__(self, key):
        return key in self._cells

    def clear(self):
        """Remove every entry."""
        self._cells.clear()

    def pop(self, key):
        """Remove the entry ``key`` and return its Cell."""
        return self._cells.pop(key)

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def update(self, cells):
        """Add the entries of a dict (or iterable of (name, Cell) pairs), keeping their order."""
        items = cells.items() if hasattr(cells, "items") else cells
        for entry in items:
            if not isinstance(entry, (tuple, list)) or len(entry) != 2:
                raise TypeError("For 'CellDict.update', each entry must be a (name, Cell) pair, but got "
                                f"{entry!r}.")
            self[entry[0]] = entry[1]

    def construct(self, *inputs):
        raise NotImplementedError("CellDict is a container and cannot be called; look its Cells up by name in "
                                  "the owning Cell's construct.")
