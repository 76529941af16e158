"""``set_op_strategy_config``: save/load the operator strategies of sharding propagation (JSON).

MindSpore's AUTO_PARALLEL with ``search_mode="sharding_propagation"`` gives every operator a
strategy and can save them to JSON or load them back. sporax's AUTO_PARALLEL chooses parameter
layouts (``sporax.parallel.auto_parallel.search_layouts``) and lets GSPMD propagate shardings to
the operators, so it has no per-operator strategies to save or load: the call checks its
arguments as MindSpore does, then refuses.
"""
import os

_SYSTEM_FOLDERS = ("/etc", "/usr", "/bin", "/sbin", "/boot", "/proc", "/sys")


def set_op_strategy_config(mode="SAVE", path=""):
    """Not available: save (``"SAVE"``) or load (``"LOAD"``) operator strategies as JSON.

    Args:
        mode (str): ``"SAVE"`` or ``"LOAD"``. Default: ``"SAVE"``.
        path (str): an absolute ``.json`` path. Default: ``""``.

    Raises:
        KeyError: ``path`` is not absolute or not ``.json``, or ``mode`` is unknown.
        PermissionError: ``path`` is in a system folder.
        NotImplementedError: otherwise; save the parameter layouts with
            ``AutoParallel.save_param_strategy_file`` (or ``strategy_ckpt_config``) instead.
    """
    if not os.path.isabs(path):
        raise KeyError("File path must be an absolute path")
    if os.path.splitext(path)[1] != ".json":
        raise KeyError("File type must be .json")
    normalized = os.path.abspath(os.path.realpath(path))
    for folder in _SYSTEM_FOLDERS:
        if normalized.startswith(folder):
            raise PermissionError(f"Writing to system directory '{folder}' is not allowed")
    if mode not in ("SAVE", "LOAD"):
        raise KeyError("Type must be 'SAVE' or 'LOAD'")
    raise NotImplementedError(
        f"set_op_strategy_config('{mode}', '{path}') saves or loads per-operator strategies of MindSpore's sharding "
        "propagation; sporax's AUTO_PARALLEL chooses parameter layouts and lets XLA's GSPMD propagate the operators' "
        "shardings, so there are no operator strategies to save or load. Save the parameter layouts with "
        "AutoParallel.save_param_strategy_file or set_auto_parallel_context(strategy_ckpt_config=...) instead.")
