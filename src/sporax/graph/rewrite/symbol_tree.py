"""``SymbolTree``: a network's ``construct`` as editable nodes, and the network built back from them."""
import ast
import builtins
import inspect
import textwrap

from sporax.graph.rewrite.node import Node, _node
from sporax.graph.rewrite.values import NodeType, ScopedValue, _OPERATORS, _check_type, _targets_of, _value_of
from sporax.ops.primitive import Primitive
from sporax.state.discovery import is_cell


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
