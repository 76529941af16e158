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
import ast
import builtins
import enum
import inspect
import textwrap

from sporax.ops.primitive import Primitive
from sporax.state.discovery import is_cell


class ValueType(enum.Enum):
    """The kinds of :class:`ScopedValue`."""

    ConstantValue = 0
    TupleValue = 20
    ListValue = 21
    DictValue = 22
    NamingValue = 40
    CustomObjValue = 41
    UnsupportedValue = 50


class NodeType(enum.Enum):
    """The kinds of :class:`Node`."""

    Unknown = 0
    CallCell = 1
    CallPrimitive = 2
    CallModule = 3
    CallFunction = 4
    CallMethod = 5
    Python = 6
    Input = 7
    Output = 8
    Tree = 9
    CellContainer = 10
    MathOps = 11
    ControlFlow = 12


def _check_type(name, value, types, where):
    if not isinstance(value, types):
        names = [t.__name__ for t in (types if isinstance(types, tuple) else (types,))]
        raise TypeError(f"For '{where}', the type of '{name}' should be {'one of ' if len(names) > 1 else ''}"
                        f"'{names if len(names) > 1 else names[0]}', but got type '{type(value).__name__}'.")


class ScopedValue:
    """A value with its scope: a name (``self.dense``, ``x``), a constant, or a container of values.

    Args:
        arg_type (ValueType): the kind of value.
        scope (str): the scope, e.g. ``"self"``. Default: ``""``.
        value: the name (for ``NamingValue``) or the value. Default: ``None``.

    Example:
        >>> from sporax.graph.rewrite import ScopedValue
        >>> print(ScopedValue.create_naming_value("conv", "self"))
        self.conv
    """

    def __init__(self, arg_type: ValueType, scope: str = "", value=None):
        _check_type("arg_type", arg_type, ValueType, "ScopedValue")
        _check_type("scope", scope, str, "ScopedValue")
        self.type = arg_type
        self.scope = scope
        self.value = value

    @classmethod
    def create_variable_value(cls, value):
        """A constant, tuple, list, dict or custom-object value (scope empty)."""
        if value is None or isinstance(value, (int, float, str, bool)):
            return cls(ValueType.ConstantValue, "", value)
        if isinstance(value, tuple):
            return cls(ValueType.TupleValue, "", tuple(cls.create_variable_value(item) for item in value))
        if isinstance(value, list):
            return cls(ValueType.ListValue, "", [cls.create_variable_value(item) for item in value])
        if isinstance(value, dict):
            return cls(ValueType.DictValue, "", {cls.create_variable_value(key): cls.create_variable_value(item)
                                                  for key, item in value.items()})
        return cls(ValueType.CustomObjValue, "", value)

    @classmethod
    def create_naming_value(cls, name: str, scope: str = ""):
        """A reference to the variable ``name`` (in ``scope``)."""
        _check_type("name", name, str, "ScopedValue")
        _check_type("scope", scope, str, "ScopedValue")
        return cls(ValueType.NamingValue, scope, name)

    @staticmethod
    def create_name_values(names, scopes=None):
        """A list of naming values, one per name (with the matching scope)."""
        if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
            raise TypeError(f"For 'ScopedValue', 'names' should be a list or tuple of str, but got {names!r}.")
        if scopes is not None:
            if not isinstance(scopes, (list, tuple)) or not all(isinstance(scope, str) for scope in scopes):
                raise TypeError(f"For 'ScopedValue', 'scopes' should be a list or tuple of str, but got {scopes!r}.")
            if len(names) != len(scopes):
                raise ValueError("Length of names should be equal to length of scopes")
        return [ScopedValue.create_naming_value(name, scopes[index] if scopes is not None else "")
                for index, name in enumerate(names)]

    def source(self):
        """The value as Python source."""
        if self.type == ValueType.NamingValue:
            return str(self)
        if self.type == ValueType.ConstantValue:
            return repr(self.value)
        if self.type == ValueType.TupleValue:
            items = [item.source() for item in self.value]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if self.type == ValueType.ListValue:
            return "[" + ", ".join(item.source() for item in self.value) + "]"
        if self.type == ValueType.DictValue:
            return "{" + ", ".join(f"{key.source()}: {item.source()}" for key, item in self.value.items()) + "}"
        raise ValueError(f"The value {self} cannot be written as Python source; use a naming or constant value.")

    def __str__(self):
        if self.type == ValueType.ConstantValue:
            return str(self.value)
        if self.type == ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else str(self.value)
        if self.type == ValueType.CustomObjValue:
            return f"CustomObj: {self.value}"
        return f"Illegal ValueType: {self.type}"

    __repr__ = __str__

    def __eq__(self, other):
        if self is other:
            return True
        return isinstance(other, ScopedValue) and (self.type, self.scope, self.value) == \
            (other.type, other.scope, other.value)

    def __hash__(self):
        return hash((self.type, self.scope, str(self.value)))


def _value_of(expression):
    """A ScopedValue for an argument expression, or None when it is not a simple value."""
    if isinstance(expression, ast.Name):
        return ScopedValue.create_naming_value(expression.id)
    if isinstance(expression, ast.Attribute) and isinstance(expression.value, ast.Name):
        return ScopedValue.create_naming_value(expression.attr, expression.value.id)
    if isinstance(expression, ast.Constant):
        return ScopedValue.create_variable_value(expression.value)
    if isinstance(expression, (ast.Tuple, ast.List)):
        items = [_value_of(item) for item in expression.elts]
        if any(item is None for item in items):
            return None
        kind = ValueType.TupleValue if isinstance(expression, ast.Tuple) else ValueType.ListValue
        return ScopedValue(kind, "", tuple(items) if kind == ValueType.TupleValue else items)
    return None


def _targets_of(target):
    if isinstance(target, ast.Name):
        return [ScopedValue.create_naming_value(target.id)]
    if isinstance(target, ast.Tuple) and all(isinstance(item, ast.Name) for item in target.elts):
        return [ScopedValue.create_naming_value(item.id) for item in target.elts]
    return None


_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
              ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}


def _as_values(values, where):
    result = []
    for value in values or []:
        if isinstance(value, str):
            value = ScopedValue.create_naming_value(value)
        _check_type("args", value, ScopedValue, where)
        result.append(value)
    return result


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


class Position:
    """Where :meth:`SymbolTree.insert` puts a node: before or after ``node``."""

    def __init__(self, node, before):
        self.node = node
        self.before = before


class SymbolTree:
    """The nodes of a network's ``construct``, editable, from which a new network is built.

    Example:
        >>> import sporax as ms
        >>> from sporax.graph.rewrite import SymbolTree
        >>> class Net(ms.nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.dense = ms.nn.Dense(2, 2)
        ...     def construct(self, x):
        ...         x = self.dense(x)
        ...         return x
        >>> tree = SymbolTree.create(Net())  # doctest: +SKIP
        >>> [node.get_name() for node in tree.nodes()]  # doctest: +SKIP
        ['input_x', 'dense', 'return']
    """

    def __init__(self, handler=None):
        self._nodes = []
        self._network = None
        self._arguments = None
        self._globals = {}
        self._file_name = "network_define.py"

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def create(cls, network):
        """The tree of ``network``'s ``construct`` (its class's source must be available).

        Raises:
            TypeError: ``network`` is not a Cell.
            OSError: the source of the network's class cannot be read (a class defined interactively).
        """
        if not is_cell(network):
            raise TypeError(f"For 'SymbolTree.create', the type of 'network' should be 'Cell', but got type "
                            f"'{type(network).__name__}'.")
        construct = type(network).construct
        source = textwrap.dedent(inspect.getsource(construct))
        function = ast.parse(source).body[0]
        tree = cls()
        tree._network = network
        tree._arguments = function.args
        tree._globals = dict(construct.__globals__)
        for argument in function.args.args[1:]:
            tree._append(Node.create_input(argument.arg))
        for statement in function.body:
            tree._append(tree._node_of(statement))
        return tree

    def _append(self, node):
        node._name = self.unique_name(node._name) if self._has_name(node._name) else node._name
        node._tree = self
        self._nodes.append(node)

    def _has_name(self, name):
        return any(node._name == name for node in self._nodes)

    def _resolve(self, expression):
        """The object an expression names (``ops.abs``, ``abs``), or None."""
        if isinstance(expression, ast.Name):
            return self._globals.get(expression.id, getattr(builtins, expression.id, None))
        if isinstance(expression, ast.Attribute):
            base = self._resolve(expression.value)
            return getattr(base, expression.attr, None) if base is not None else None
        return None

    def _node_of(self, statement):
        if isinstance(statement, ast.Return):
            values = [] if statement.value is None else (
                statement.value.elts if isinstance(statement.value, ast.Tuple) else [statement.value])
            args = [_value_of(value) for value in values]
            if all(arg is not None for arg in args):
                return _node(NodeType.Output, "return", args=args)
        if isinstance(statement, (ast.If, ast.For, ast.While)):
            return _node(NodeType.ControlFlow, f"{type(statement).__name__.lower()}_node", statement=statement)
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            targets = _targets_of(statement.targets[0])
            value = statement.value
            if targets is not None and isinstance(value, ast.Call):
                node = self._call_node(targets, value, statement)
                if node is not None:
                    return node
            if targets is not None and isinstance(value, ast.BinOp) and type(value.op) in _OPERATORS:
                args = [_value_of(value.left), _value_of(value.right)]
                if all(arg is not None for arg in args):
                    name = "binop_" + type(value.op).__name__.lower()
                    return _node(NodeType.MathOps, name, targets, args, operator=_OPERATORS[type(value.op)])
        return _node(NodeType.Python, "python_node", statement=statement)

    def _call_node(self, targets, call, statement):
        args = [_value_of(argument) for argument in call.args]
        kwargs = {keyword.arg: _value_of(keyword.value) for keyword in call.keywords}
        if any(arg is None for arg in args) or None in kwargs or any(v is None for v in kwargs.values()):
            return None
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            instance = getattr(self._network, func.attr, None)
            callee = ScopedValue.create_naming_value(func.attr, "self")
            if isinstance(instance, Primitive):
                return _node(NodeType.CallPrimitive, func.attr, targets, args, kwargs, instance, callee)
            if is_cell(instance):
                return _node(NodeType.CallCell, func.attr, targets, args, kwargs, instance, callee)
            return _node(NodeType.CallMethod, func.attr, targets, args, kwargs, instance, callee, statement)
        resolved = self._resolve(func)
        if resolved is not None and callable(resolved):
            callee = ScopedValue.create_naming_value(ast.unparse(func))
            return _node(NodeType.CallFunction, getattr(resolved, "__name__", "function"), targets, args, kwargs,
                         resolved, callee)
        if isinstance(func, ast.Attribute):  # a method of a local value: x.reshape(...)
            return _node(NodeType.CallMethod, func.attr, targets, args, kwargs, None,
                         ScopedValue.create_naming_value(ast.unparse(func)), statement)
        return None

    # --- navigation -------------------------------------------------------------------------
    def _find(self, node, where):
        _check_type("node", node, (Node, str), "SymbolTree")
        if isinstance(node, str):
            found = self.get_node(node)
            if found is None:
                raise ValueError(f"For '{where}', the SymbolTree has no node named '{node}'.")
            return found
        if node not in self._nodes:
            raise ValueError(f"For '{where}', the node '{node.get_name()}' is not in this SymbolTree.")
        return node

    def nodes(self, all_nodes: bool = False):
        """The nodes, in order (a generator)."""
        yield from list(self._nodes)

    def all_nodes(self, subtree_nodes: bool = True):
        """All the nodes (list; sporax has no sub-trees)."""
        return list(self._nodes)

    def get_node(self, node_name: str):
        """The node named ``node_name`` (None if there is none)."""
        _check_type("node_name", node_name, str, "SymbolTree")
        return next((node for node in self._nodes if node._name == node_name), None)

    def get_inputs(self):
        """The input nodes."""
        return [node for node in self._nodes if node._type == NodeType.Input]

    def before(self, node):
        """The position before ``node`` (for :meth:`insert`)."""
        return Position(self._find(node, "before"), True)

    def after(self, node):
        """The position after ``node`` (for :meth:`insert`)."""
        return Position(self._find(node, "after"), False)

    def unique_name(self, name: str = "output"):
        """``name``, or ``name_<n>``, unused by the tree's nodes and variables."""
        _check_type("name", name, str, "SymbolTree")
        taken = {node._name for node in self._nodes}
        taken |= {str(target) for node in self._nodes for target in node._targets}
        if self._network is not None:
            taken |= set(vars(self._network))
        if name not in taken:
            return name
        index = 1
        while f"{name}_{index}" in taken:
            index += 1
        return f"{name}_{index}"

    # --- editing ----------------------------------------------------------------------------
    def insert(self, position, node):
        """Insert ``node`` at ``position`` (from :meth:`before`/:meth:`after`); return it."""
        _check_type("position", position, Position, "SymbolTree")
        _check_type("node", node, Node, "SymbolTree")
        if node._type == NodeType.Input:
            raise ValueError("For 'insert', an input node cannot be inserted: inputs are the parameters of construct.")
        index = self._nodes.index(position.node) + (0 if position.before else 1)
        if self._has_name(node._name) or (node._type in (NodeType.CallCell, NodeType.CallPrimitive)
                                          and self._network is not None and hasattr(self._network, node._name)):
            node._name = self.unique_name(node._name)
            if node._type in (NodeType.CallCell, NodeType.CallPrimitive):
                node._function = ScopedValue.create_naming_value(node._name, "self")
        node._tree = self
        self._nodes.insert(index, node)
        return node

    def erase(self, node):
        """Remove ``node`` and return it (its outputs' names then refer to earlier values)."""
        node = self._find(node, "erase")
        if node._type in (NodeType.Input, NodeType.Output):
            raise ValueError(f"For 'erase', the {node._type.name} node '{node.get_name()}' cannot be erased.")
        self._nodes.remove(node)
        node._tree = None
        return node

    def replace(self, old_node, new_nodes):
        """Put ``new_nodes`` (in order) in the place of ``old_node``; return the last one."""
        _check_type("old_node", old_node, Node, "SymbolTree")
        if not isinstance(new_nodes, list) or not new_nodes or not all(isinstance(n, Node) for n in new_nodes):
            raise TypeError("For 'replace', 'new_nodes' should be a non-empty list of Node.")
        position = self.before(old_node)
        for node in new_nodes:
            self.insert(position, node)
        self.erase(old_node)
        return new_nodes[-1]

    def set_output(self, index: int, return_value: str):
        """Make output ``index`` of the ``return`` statement the variable ``return_value``; return the output node."""
        _check_type("index", index, int, "SymbolTree")
        _check_type("return_value", return_value, str, "SymbolTree")
        output = next(node for node in self._nodes if node._type == NodeType.Output)
        output.set_arg(index, return_value)
        return output

    def flatten_static_if_control_flow(self):
        """Not available: sporax keeps control flow statements whole (one ControlFlow node each)."""
        raise NotImplementedError("SymbolTree.flatten_static_if_control_flow: sporax's rewrite keeps an if/for/while "
                                  "statement as one ControlFlow node and does not expand its branches.")

    def flatten_nodes(self, node, erase_nodes_after_return: bool = False):
        """Not available: sporax's rewrite has no sub-trees or control-flow bodies to flatten."""
        raise NotImplementedError("SymbolTree.flatten_nodes: sporax's rewrite does not expand sub-networks or control "
                                  "flow into nodes, so there is nothing to flatten.")

    # --- output -----------------------------------------------------------------------------
    def get_handler(self):
        """The tree itself (sporax has no separate internal tree)."""
        return self

    def get_origin_network(self):
        """The network the tree was created from."""
        return self._network

    def _class_name(self):
        return type(self._network).__name__ + "Opt"

    def get_code(self) -> str:
        """The source of the rewritten network class."""
        arguments = ast.unparse(self._arguments)
        lines = [f"class {self._class_name()}({type(self._network).__name__}):", "",
                 f"    def construct({arguments}):"]
        for node in self._nodes:
            source = node.source()
            if source:
                lines.extend("        " + line for line in source.splitlines())
        return "\n".join(lines) + "\n"

    def get_network(self):
        """A new network running the rewritten ``construct`` (sharing the original's Parameters and Cells)."""
        namespace = dict(self._globals)
        for node in self._nodes:
            if node._type == NodeType.CallFunction and node.get_instance() is not None:
                namespace.setdefault(str(node._function), node.get_instance())
        body = "\n".join("    " + line for node in self._nodes for line in node.source().splitlines()
                         if node.source())
        source = f"def construct({ast.unparse(self._arguments)}):\n{body or '    pass'}\n"
        exec(compile(source, f"<rewrite {self._class_name()}>", "exec"), namespace)  # noqa: S102 - our own source
        base = type(self._network)
        new_class = type(self._class_name(), (base,), {"construct": namespace["construct"],
                                                          "__module__": base.__module__})
        network = object.__new__(new_class)
        state = {key: (dict(value) if isinstance(value, dict) else value)
                 for key, value in vars(self._network).items() if key != "_sporax_compiled"}
        network.__dict__.update(state)
        for node in self._nodes:
            if node._type in (NodeType.CallCell, NodeType.CallPrimitive) and node._function is not None:
                name = node._function.value
                if getattr(network, name, None) is not node.get_instance():
                    setattr(network, name, node.get_instance())
        return network

    def print_node_tabulate(self, all_nodes: bool = False):
        """Print the nodes as a table: type, name, code, argument providers, output users."""
        rows = [("node type", "name", "codes", "arg providers", "target users")]
        for node in self._nodes:
            providers = {index: (provider.get_name(), output)
                         for index, (provider, output) in node.get_arg_providers().items()}
            users = {index: [(user.get_name(), argument) for user, argument in pairs]
                     for index, pairs in node.get_target_users().items()}
            rows.append((node._type.name, node._name, node.source(), str(providers), str(users)))
        widths = [max(len(row[column]) for row in rows) for column in range(5)]
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())

    def dump(self):
        """Print the rewritten code."""
        print(self.get_code())

    def get_saved_file_name(self):
        """The file :meth:`save_network_to_file` writes."""
        return self._file_name

    def set_saved_file_name(self, file_name: str):
        """Set the file :meth:`save_network_to_file` writes (``.py`` appended if missing)."""
        _check_type("file_name", file_name, str, "SymbolTree")
        self._file_name = file_name if file_name.endswith(".py") else file_name + ".py"

    def save_network_to_file(self):
        """Write :meth:`get_code` to :meth:`get_saved_file_name`."""
        with open(self._file_name, "w", encoding="utf-8") as handle:
            handle.write(self.get_code())
