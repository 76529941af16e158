"""Graph mode: ``jit``, GRAPH_MODE Cells, the compile cache, ``mutable``, ``constexpr``."""
from sporax.graph.cell_graph_executor import _CellGraphExecutor, _cell_graph_executor
from sporax.graph.cell_jit import call_compiled, compiled_cell
from sporax.graph.constants import constexpr, mutable
from sporax.graph.cell_attributes import cell_attr_register
from sporax.graph.sink import SinkLoop
from sporax.graph.composite import HyperMap, Map, MultitypeFuncGraph, Partial, partial
from sporax.graph.jit import (JitConfig, JitFunction, _function_forbid_reuse, jit, jit_class, lazy_inline,
                              ms_memory_recycle, no_inline)
from sporax.graph.pynative_executor import CreationType, PyNativeExecutor, _pynative_executor
