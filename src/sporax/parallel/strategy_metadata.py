"""A network's parallel strategy metadata (``mindspore.parallel.strategy``) and its parameter redundancy.

MindSpore records, when it compiles a network under semi-auto or auto parallel, each parameter's
layout per rank; ``get_strategy_metadata`` returns it, and None for a network compiled without
one (a single process, data parallel), which is all sporax compiles strategies into metadata for.
``get_parameter_redundancy`` says which ranks hold identical copies of each parameter, and
``remove_param_redundancy`` picks, for each rank, the parameters it alone saves.

Example:
    >>> from sporax.parallel.strategy_metadata import remove_param_redundancy
    >>> remove_param_redundancy({"a": ((0, 1, 2, 3),), "b": ((0, 1, 2, 3),)})
    {0: {'a'}, 1: {'b'}}
"""
from sporax.core import context
from sporax.nn.cell import Cell
from sporax.parallel import communication

_COMPILED_STRATEGIES = ("semi_auto_parallel", "auto_parallel")


def _metadata(network):
    if not isinstance(network, Cell):
        raise TypeError(f"The network must be a Cell, but got {type(network)}.")
    if context.get_auto_parallel_context("parallel_mode") in _COMPILED_STRATEGIES:
        raise NotImplementedError("get_strategy_metadata: sporax shards with XLA's partitioner and keeps no "
                                  "per-rank strategy metadata; read the layouts with Cell.parameter_layout_dict.")
    return None


def get_strategy_metadata(network, rank_id=None):
    """Per-rank parameter layouts of ``network``'s parallel strategy; None without one (as MindSpore)."""
    return _metadata(network)


def get_current_strategy_metadata(network):
    """This rank's parameter layouts of ``network``'s parallel strategy; None without one (as MindSpore)."""
    return _metadata(network)


def get_parameter_redundancy(layout_obj, initial_rank=None):
    """``{parameter name: (ranks holding one copy, ...)}`` sorted by name.

    For a Cell (data parallel: every rank holds every parameter) each parameter has one group, all
    ranks of the world; ``init`` must have run. Strategy files and layout dicts of sharded
    parameters are refused with NotImplementedError.
    """
    if not isinstance(layout_obj, Cell):
        raise NotImplementedError("get_parameter_redundancy: sporax computes it for a Cell only, not from a "
                                  f"strategy file or layout dict ({type(layout_obj).__name__}).")
    ranks = (tuple(communication.get_process_group_ranks()),)
    return {name: ranks for name in sorted(parameter.name for _, parameter in layout_obj.parameters_and_names())}


def remove_param_redundancy(param_redundancy_dict, keep_redundancy=1):
    """``{rank: {parameter names it saves}}``: within each group of ranks holding the same copies, the
    parameters go round-robin over the group's ranks; ``keep_redundancy`` copies start one rank further on."""
    groups = {}
    for name, redundancy in param_redundancy_dict.items():
        for ranks in redundancy:
            groups.setdefault(tuple(ranks), []).append(name)
    result = {}
    for copy in range(keep_redundancy):
        for ranks, names in groups.items():
            for position, name in enumerate(names):
                result.setdefault(ranks[(copy + position) % len(ranks)], set()).add(name)
    return result


_saving_online = [False]


def enable_save_strategy_online():
    """Record strategy metadata while compiling (MindSpore's switch for ``get_strategy_metadata``); stored:
    sporax compiles no per-rank metadata, so the getters keep answering as without it."""
    _saving_online[0] = True
