"""``set_dump``: mark a Cell (and what it contains) or a Primitive for MindSpore's data dump.

MindSpore reads these marks when its Ascend dump (``dump_mode`` 2 of the dump configuration)
writes operator data; on other devices it sets them and warns. sporax has no Ascend dump writer
and does the same: the Cells get the ``dump`` flag, their Primitives the ``dump`` attribute
(``"true"``/``"false"``), and a warning says the marks need the Ascend dump. To see values in
sporax, use ``ops.TensorDump``/``ops.tensordump`` or the ``Profiler``.
"""
import warnings

from sporax.core import context
from sporax.ops.primitive import Primitive
from sporax.state.discovery import is_cell


def set_dump(target, enabled=True):
    """Enable or disable the dump marks of ``target`` and its contents.

    Args:
        target (Union[Cell, Primitive]): the Cell (with every Cell and Primitive inside it) or Primitive.
        enabled (bool): mark (True) or unmark (False). Default: ``True``.

    Raises:
        ValueError: ``target`` is neither a Cell nor a Primitive, or ``enabled`` is not a bool.

    Example:
        >>> import warnings
        >>> import sporax as ms
        >>> net = ms.nn.Dense(2, 3)
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     ms.set_dump(net)
        >>> net.dump
        True
    """
    if not is_cell(target) and not isinstance(target, Primitive):
        raise ValueError(f"The \"target\" parameter must be an instance of Cell or Primitive, "
                         f"but got an instance of {type(target)}.")
    if not isinstance(enabled, bool):
        raise ValueError("The \"enabled\" parameter must be bool.")
    device = context.get_context("device_target")
    if device != "Ascend":
        warnings.warn(f"Current device_target is {device}, which is not supported by set_dump. Only Ascend device "
                      "target is supported currently. If you have Ascend device, consider set device_target to "
                      "Ascend before calling set_dump.", stacklevel=2)
    _mark(target, enabled)


def _mark(target, enabled):
    if isinstance(target, Primitive):
        target.add_prim_attr("dump", "true" if enabled else "false")
        return
    target.add_flags(dump=enabled)
    for cell in target.cells():
        _mark(cell, enabled)
    for value in vars(target).values():
        if isinstance(value, Primitive) and "dump" in value.attrs:
            _mark(value, enabled)
