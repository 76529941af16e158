"""``Node``: one statement of a rewritten ``construct``."""
import ast

from sporax.graph.rewrite.values import NodeType, ScopedValue, ValueType, _as_values, _check_type
from sporax.ops.primitive import Primitive
from sporax.state.discovery import is_cell


class _Statement:
    """What a node holds: the statement's kind, name, values, callee and source."""

    def __init__(self, node_type, name, targets=(), args=(), kwargs=None, instance=None, function=None,
                 statement=None, operator=None):
        self._type = node_type
        self._name = name
        self._targets = list(targets)
        self._args = list(args)
        self._kwargs = dict(kwargs or {})
        self._instance = instance
        self._function = function  # ScopedValue of the callee (self.dense, ops.abs)
        self._statement = statement  # the original ast statement (Python and ControlFlow nodes)
        self._operator = operator  # MathOps: the source operator
        self._tree = None
        self._default = None


class Node:
    """One statement of a ``construct`` in a :class:`SymbolTree`.

    Created by ``SymbolTree.create`` or by ``Node.create_call_cell``/``create_call_function``/``create_input``.
    """

    def __init__(self, node):
        if not isinstance(node, _Statement):
            raise TypeError("Node wraps what SymbolTree.create parses; create nodes with Node.create_call_cell, "
                            "Node.create_call_function or Node.create_input.")
        self.__dict__.update(vars(node))

    # --- creation ---------------------------------------------------------------------------
    @staticmethod
    def create_call_cell(cell, targets, args=None, kwargs=None, name: str = "", is_sub_net: bool = False):
        """A node ``targets = self.<name>(*args, **kwargs)`` calling ``cell``.

        Example:
            >>> import sporax as ms
            >>> from sporax.graph.rewrite import Node, ScopedValue
            >>> node = Node.create_call_cell(ms.nn.ReLU(), ["x"], [ScopedValue.create_naming_value("x")], name="act")
            >>> node.get_name(), node.get_node_type().name
            ('act', 'CallCell')
        """
        if not is_cell(cell):
            raise TypeError(f"For 'Node.create_call_cell', the type of 'cell' should be 'Cell', but got type "
                            f"'{type(cell).__name__}'.")
        _check_type("name", name, str, "Node")
        name = name or type(cell).__name__.lower()
        node_type = NodeType.CallPrimitive if isinstance(cell, Primitive) else NodeType.CallCell
        return _node(node_type, name, _as_values(targets, "Node"), _as_values(args, "Node"),
                     {key: _as_values([value], "Node")[0] for key, value in (kwargs or {}).items()},
                     instance=cell, function=ScopedValue.create_naming_value(name, "self"))

    @staticmethod
    def create_call_function(function, targets, args=None, kwargs=None):
        """A node ``targets = function(*args, **kwargs)``."""
        if not callable(function):
            raise TypeError(f"For 'Node.create_call_function', 'function' should be callable, but got "
                            f"{type(function).__name__}.")
        name = getattr(function, "__name__", "function")
        return _node(NodeType.CallFunction, name, _as_values(targets, "Node"), _as_values(args, "Node"),
                     {key: _as_values([value], "Node")[0] for key, value in (kwargs or {}).items()},
                     instance=function, function=ScopedValue.create_naming_value(name))

    @staticmethod
    def create_input(param_name: str, default=None):
        """An input (a parameter of ``construct``) named ``param_name``."""
        _check_type("param_name", param_name, str, "Node")
        node = _node(NodeType.Input, f"input_{param_name}", [ScopedValue.create_naming_value(param_name)])
        node._default = default
        return node

    # --- inspection -------------------------------------------------------------------------
    def get_name(self) -> str:
        """The node's unique name in its tree."""
        return self._name

    def get_node_type(self) -> NodeType:
        """The node's :class:`NodeType`."""
        return self._type

    def get_targets(self):
        """The values the statement assigns (list of ScopedValue)."""
        return list(self._targets)

    def get_args(self):
        """The positional arguments (list of ScopedValue)."""
        return list(self._args)

    def get_kwargs(self):
        """The keyword arguments (dict of ScopedValue)."""
        return dict(self._kwargs)

    def get_instance(self):
        """The Cell, Primitive or function the node calls (None for other nodes)."""
        return self._instance

    def get_instance_type(self) -> type:
        """The type of :meth:`get_instance` (a function node gives the function itself, as MindSpore)."""
        if self._type == NodeType.CallFunction:
            return self._instance
        return type(self._instance)

    def get_handler(self):
        """The node itself (sporax has no separate internal node)."""
        return self

    def get_symbol_tree(self):
        """The :class:`SymbolTree` holding the node (None before insertion)."""
        return self._tree

    def get_sub_tree(self):
        """The sub-tree of a ``Tree`` node: sporax does not expand sub-networks, so always None."""
        return None

    def get_attributes(self):
        """The called Cell's or Primitive's attributes (dict)."""
        if isinstance(self._instance, Primitive):
            return dict(self._instance.attrs)
        if is_cell(self._instance):
            return {key: value for key, value in vars(self._instance).items() if not key.startswith("_")}
        return {}

    def get_attribute(self, key: str):
        """One attribute of the called Cell or Primitive (None if absent)."""
        return self.get_attributes().get(key)

    def set_attribute(self, key: str, value):
        """Set an attribute of the called Cell (``setattr``) or Primitive (``add_prim_attr``)."""
        _check_type("key", key, str, "Node")
        if isinstance(self._instance, Primitive):
            self._instance.add_prim_attr(key, value)
        elif self._instance is not None:
            setattr(self._instance, key, value)

    # --- data flow --------------------------------------------------------------------------
    def _before(self):
        if self._tree is None:
            return []
        nodes = self._tree._nodes
        return nodes[:nodes.index(self)]

    def _provider(self, value):
        if value.type != ValueType.NamingValue or value.scope:
            return None, None
        for node in reversed(self._before()):
            for index, target in enumerate(node._targets):
                if target.value == value.value and not target.scope:
                    return node, index
        return None, None

    def get_arg_providers(self) -> dict:
        """``{argument index: (node, output index)}`` of the nodes whose outputs the arguments read."""
        providers = {}
        for index, value in enumerate(self._args):
            node, output = self._provider(value)
            if node is not None:
                providers[index] = (node, output)
        return providers

    def get_inputs(self):
        """The nodes whose outputs this node reads, in argument order."""
        inputs = []
        for value in self._args + list(self._kwargs.values()):
            node, _ = self._provider(value)
            if node is not None and node not in inputs:
                inputs.append(node)
        return inputs

    def get_target_users(self, index=-1):
        """``{target index: [(node, argument index)]}`` (or one target's list) of the nodes reading the outputs."""
        users = {position: [] for position in range(len(self._targets))}
        if self._tree is not None:
            nodes = self._tree._nodes
            for node in nodes[nodes.index(self) + 1:]:
                for argument, (provider, output) in node.get_arg_providers().items():
                    if provider is self:
                        users[output].append((node, argument))
        return users if index == -1 else users.get(index, [])

    def get_users(self):
        """The nodes that read this node's outputs."""
        found = []
        for pairs in self.get_target_users().values():
            for node, _ in pairs:
                if node not in found:
                    found.append(node)
        return found

    def set_arg(self, index: int, arg):
        """Replace positional argument ``index`` by ``arg`` (a ScopedValue or a name)."""
        _check_type("index", index, int, "Node")
        self._args[index] = _as_values([arg], "Node")[0]
        self._statement = None

    def set_arg_by_node(self, arg_idx: int, src_node, out_idx=None):
        """Make argument ``arg_idx`` read output ``out_idx`` (default the only one) of ``src_node``."""
        _check_type("src_node", src_node, Node, "Node")
        targets = src_node._targets
        if out_idx is None:
            if len(targets) != 1:
                raise ValueError(f"For 'set_arg_by_node', the node '{src_node.get_name()}' has {len(targets)} outputs: "
                                 "pass out_idx.")
            out_idx = 0
        self.set_arg(arg_idx, targets[out_idx])

    # --- source -----------------------------------------------------------------------------
    def _call_source(self):
        parts = [value.source() for value in self._args]
        parts += [f"{key}={value.source()}" for key, value in self._kwargs.items()]
        return f"{self._function}({', '.join(parts)})"

    def source(self):
        """The statement as Python source (empty for an input)."""
        if self._type == NodeType.Input:
            return ""
        if self._type == NodeType.Output:
            return "return " + ", ".join(value.source() for value in self._args)
        if self._statement is not None and self._type in (NodeType.Python, NodeType.ControlFlow, NodeType.CallMethod):
            return ast.unparse(self._statement)
        if self._type == NodeType.MathOps:
            expression = f" {self._operator} ".join(value.source() for value in self._args)
        else:
            expression = self._call_source()
        if not self._targets:
            return expression
        return ", ".join(str(target) for target in self._targets) + " = " + expression

    def __repr__(self):
        return f"Node({self._type.name}, {self._name!r})"


def _node(*args, **kwargs):
    return Node(_Statement(*args, **kwargs))
