"""``_cell_graph_executor``: the handle MindSpore's own tests compile and run a Cell's graph through.

MindSpore 2.10's ``mindspore.common.api._cell_graph_executor.compile(net, *inputs)`` compiles
``net.construct`` as GRAPH_MODE does (whatever the context's mode) and returns ``(phase, compiled
now)``; calling the handle with the Cell and inputs runs the graph compiled for it last. Here the
compile is the Cell's own ``compile`` (a graph-syntax error raises there, as in MindSpore) and the
run is its GRAPH_MODE call. MindSpore's other members (export, dataset queues, parallel strategy
queries) are not provided.
"""
import numpy as np

from sporax.core.tensor import Tensor


def _signature(args):
    """What MindSpore's arguments key tells apart: each input's shape and dtype, or its value."""
    return tuple((tuple(value.shape), str(value.dtype)) if isinstance(value, (Tensor, np.ndarray))
                 else (type(value).__name__, repr(value)) for value in args)


class _CellGraphExecutor:
    """Compiles Cells' graphs for given inputs and runs them (``mindspore.common.api._cell_graph_executor``)."""

    def __init__(self):
        self._signatures = {}  # input signature -> its arguments key (one counter for all Cells, as MindSpore)
        self._phases = set()
        self._latest_key = {}  # id(cell) -> the arguments key of its latest compile

    def compile(self, obj, *args, phase="predict", do_convert=True, jit_config_dict=None, **kwargs):
        """Compile ``obj.construct`` for ``args`` in GRAPH_MODE without running it.

        Args:
            obj (Cell): the network.
            args: its inputs.
            phase (str): the phase name's prefix. Default: ``"predict"``.
            do_convert (bool): accepted for MindSpore's signature (sporax always converts).
            jit_config_dict (dict): accepted for MindSpore's signature.
            kwargs: keyword inputs of ``construct``.

        Returns:
            tuple: ``(phase_name, compiled_now)``; ``compiled_now`` is False when this phase and input
            signature were compiled before.

        Raises:
            AttributeError: ``obj`` has no ``construct`` method.
        """
        if not callable(getattr(obj, "construct", None)):
            raise AttributeError(f"For '_cell_graph_executor.compile', the object must be a Cell: the class "
                                 f"{type(obj).__name__} does not have method construct.")
        key = self._signatures.setdefault(_signature(args), len(self._signatures))
        self._latest_key[id(obj)] = key
        name = self._phase_name(obj, phase, key)
        if name in self._phases:
            return name, False
        obj.compile(*args, **kwargs)
        self._phases.add(name)
        return name, True

    def has_compiled(self, phase="predict"):
        """Whether ``phase`` (a phase name ``compile`` returned) was compiled."""
        return phase in self._phases

    def __call__(self, obj, *args, phase="predict"):
        """Run the graph compiled for ``obj`` last (``run``)."""
        return self.run(obj, *args, phase=phase)

    def run(self, obj, *args, phase="predict"):
        """Run ``obj``'s compiled graph on ``args``: one argument per graph input, where a tuple or list given
        for an input compiled as a Tensor passes its first element (MindSpore's tests call
        ``_cell_graph_executor(net, inputs)`` with the tuple of a one-input network's inputs).

        Raises:
            KeyError: ``obj`` has no graph compiled for ``phase`` (``compile`` it first).
            RuntimeError: fewer arguments than the compiled graph has inputs.
        """
        from sporax.graph.cell_jit import call_compiled

        name = self._phase_name(obj, phase, self._latest_key.get(id(obj), ""))
        if name not in self._phases:
            raise KeyError(f"{name} graph is not exist. Compile the Cell first with "
                           f"_cell_graph_executor.compile(net, *inputs).")
        compiled_args = obj.__dict__.get("_compile_inputs", (args, {}))[0]
        if len(args) < len(compiled_args):
            raise RuntimeError(f"Parameter[{len(args)}] has no default param: the graph of "
                               f"{type(obj).__name__}.construct was compiled with {len(compiled_args)} inputs, "
                               f"but {len(args)} were given (pass them as separate arguments).")
        args = tuple(value[0] if isinstance(value, (tuple, list)) and value and isinstance(compiled, Tensor)
                     else value for value, compiled in zip(args, compiled_args)) + args[len(compiled_args):]
        return call_compiled(obj, args, {})

    @staticmethod
    def _phase_name(obj, phase, key):
        return f"{phase}.{getattr(obj, 'create_time', 0)}.{id(obj)}.{key}"


_cell_graph_executor = _CellGraphExecutor()
