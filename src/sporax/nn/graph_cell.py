"""``nn.GraphCell``: run a graph loaded by ``load`` as a Cell."""
from sporax.core import context
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor, unwrap
from sporax.graph.cell_jit import call_compiled
from sporax.graph.jit import jit
from sporax.nn.cell import Cell
from sporax.state.scope import is_tracing


class GraphCell(Cell):
    """A Cell that runs a loaded graph with its stored weights.

    The weights become Parameters named as MindSpore names them (the ckpt keys), so the Cell trains,
    ``load_param_into_net`` and ``save_checkpoint`` work on it, and its checkpoint loads into the Python
    network the graph was exported from. It runs in PyNative and GRAPH mode.

    Args:
        graph: what ``sporax.load`` returned (a MindIR of MindSpore or sporax).
        params_init (dict): ``{name: Tensor}`` replacing stored weights.
        obf_random_seed (int): MindSpore's key of obfuscated models; sporax does not read those.

    Inputs:
        The graph's inputs, as Tensors.

    Outputs:
        The graph's outputs, in the exported network's structure.

    Example:
        >>> import sporax as ms
        >>> ms.export(ms.nn.Dense(3, 2), ms.ops.ones((1, 3)), file_name="dense")
        >>> ms.nn.GraphCell(ms.load("dense.mindir"))(ms.ops.ones((1, 3))).shape
        (1, 2)
    """
    # A loaded graph has no training-dependent Python: one program serves PyNative and GRAPH_MODE.
    keys_programs_on_phase = False

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__(auto_prefix=False)
        if not hasattr(graph, "parameters") or not hasattr(graph, "call"):
            raise TypeError(f"For 'GraphCell', graph must be what sporax.load() returns, "
                            f"got {type(graph).__name__}.")
        if obf_random_seed is not None:
            raise NotImplementedError("GraphCell(obf_random_seed=...): sporax does not run obfuscated MindIR "
                                      "models; export the model without obfuscation.")
        params_init = dict(params_init or {})
        unknown = sorted(set(params_init) - set(graph.parameters))
        if unknown:
            raise ValueError(f"For 'GraphCell', params_init names parameters the graph does not have: "
                             f"{unknown}.")
        self.graph = graph
        self._graph_parameters = []
        for name, value in graph.parameters.items():
            value = params_init.get(name, value)
            parameter = Parameter(Tensor(value), name=name)
            self.insert_param_to_cell(name, parameter, check_name_contain_dot=False)
            self._graph_parameters.append(parameter)

    # A loaded graph holds no Python to run eagerly: as in MindSpore, it runs compiled in PyNative mode too
    # (op by op it compiled every node on its first call, 5-10x the time), as the program GRAPH mode compiles:
    # the graph's trace is the same in both modes (it is compiled code either way), so a GraphCell called in
    # PyNative and GRAPH mode compiles once.
    def _call_unhooked(self, args, kwargs):
        if context.get_mode() == context.GRAPH_MODE or is_tracing():
            return super()._call_unhooked(args, kwargs)
        if self._cast_type is not None:
            args, kwargs = self._cast_inputs(args, kwargs)
        return call_compiled(self, args, kwargs)

    @jit  # construct called directly, outside a Cell call, runs compiled too
    def construct(self, *inputs):
        return self.graph.call([p._value for p in self._graph_parameters],
                               *[unwrap(value) for value in inputs])
