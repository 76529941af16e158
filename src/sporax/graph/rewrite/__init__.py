"""MindSpore's ``rewrite`` API on a network's ``construct``: ``SymbolTree``, ``Node``, ``NodeType``, ``ScopedValue``.

``SymbolTree.create(network)`` parses the source of ``type(network).construct`` into one node per
statement: its inputs (``Input``), calls of sub-Cells (``CallCell``), Primitives (``CallPrimitive``),
functions (``CallFunction``) and methods (``CallMethod``), arithmetic (``MathOps``), control flow
kept whole (``ControlFlow``), other Python (``Python``) and the ``return`` (``Output``). Nodes can be
inspected, re-wired (``set_arg``, ``set_arg_by_node``), inserted, erased and replaced; ``get_code``
shows the rewritten class and ``get_network`` builds it: a subclass of the network's class whose
``construct`` is the rewritten one, on an instance that shares the original's Parameters and
sub-Cells (new Cells created by ``Node.create_call_cell`` are added to it).

This is a smaller rewrite than MindSpore's: sub-networks are not expanded into sub-trees
(``NodeType.Tree``), and statements inside ``if``/``for``/``while`` stay one ``ControlFlow`` node
(``flatten_static_if_control_flow``/``flatten_nodes`` raise ``NotImplementedError``).
"""
from sporax.graph.rewrite.node import Node
from sporax.graph.rewrite.symbol_tree import Position, SymbolTree
from sporax.graph.rewrite.values import NodeType, ScopedValue, ValueType

__all__ = ["Node", "NodeType", "Position", "ScopedValue", "SymbolTree", "ValueType"]
