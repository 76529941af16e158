"""The syntax-tree rewrite: Python control flow -> calls into ``control_flow.runtime``.

Two passes over one function's tree (see ``convert`` for the contract):

1. ``lower_jumps`` removes ``break``, ``continue`` and ``return`` from inside ``if``/``while``/
   ``for``: each sets a flag variable (``return`` also stores the value), the statements after
   a possible jump run under ``if not flag:``, a loop's test gains ``not break_flag``, and the
   function ends with one ``return``. What remains is structured control flow whose branches
   and loop bodies are pure functions of the variables they assign.
2. ``ControlFlowRewriter`` turns each ``if``/``while``/``for`` into local functions over the
   variables the statement assigns (``analysis.assigned_names``) and one runtime call that
   returns their new values::

       if test:            def _cf_if_true_3(x, y): body; return (x, y)
           body      ->    def _cf_if_false_3(x, y): orelse; return (x, y)
       else: orelse        (x, y) = _cf.if_stmt(test, _cf_if_true_3, _cf_if_false_3, (x, y), ('x', 'y'), 3)

   Conditional expressions, ``and``/``or``/``not`` and chained comparisons become runtime
   calls too, so a tensor operand never meets Python's ``bool()``. The runtime decides per
   call whether the value is a Python one (plain Python runs) or a traced tensor (lax).
"""
import ast

from sporax.graph.control_flow.analysis import HELPER_PREFIX, assigned_names, has_jump, side_effects
from sporax.graph.control_flow.formatted_strings import format_template

RUNTIME = HELPER_PREFIX + "rt"
RETURN_FLAG = HELPER_PREFIX + "do_return"
RETURN_VALUE = HELPER_PREFIX + "retval"
PENDING_ERRORS = HELPER_PREFIX + "pending"  # join errors of print arguments, raised at the return (runtime.print_)
INLINE_LAMBDA = "__sporax_inline_lambda__"  # marks a lambda written inside compiled code (runtime.inline_lambda)


def _name(identifier, store=False):
    return ast.Name(id=identifier, ctx=ast.Store() if store else ast.Load())


def _runtime(attribute):
    return ast.Attribute(value=_name(RUNTIME), attr=attribute, ctx=ast.Load())


def _format_call(node):
    """``format_template``'s parts for a ``'literal'.format(positional, ...)`` call, or None."""
    function = node.func
    if not (isinstance(function, ast.Attribute) and function.attr == "format" and not node.keywords
            and isinstance(function.value, ast.Constant) and isinstance(function.value.value, str)
            and not any(isinstance(argument, ast.Starred) for argument in node.args)):
        return None
    return format_template(function.value.value, len(node.args))


def _call(attribute, *args):
    return ast.Call(func=_runtime(attribute), args=list(args), keywords=[])


def _membership(node):
    """``a in b`` / ``a not in b`` (one comparison) as runtime.contains: MindSpore's graph matches Tensors in a
    sequence by shape and values. ``a is 3`` / ``a is not 3`` as runtime.identity: a number a tensor
    condition chose stays a number there."""
    if isinstance(node.ops[0], (ast.In, ast.NotIn)):
        call = _call("contains", node.comparators[0], node.left, ast.Constant(value=isinstance(node.ops[0], ast.In)))
        return ast.copy_location(call, node)
    if isinstance(node.ops[0], (ast.Is, ast.IsNot)) and any(_number_constant(side) for side in
                                                            (node.left, node.comparators[0])):
        call = _call("identity", node.left, node.comparators[0], ast.Constant(value=isinstance(node.ops[0], ast.Is)))
        return ast.copy_location(call, node)
    return node


def _number_constant(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)


def _assign(identifier, value):
    return ast.Assign(targets=[_name(identifier, store=True)], value=value)


def _tuple(names, store=False):
    return ast.Tuple(elts=[_name(name, store) for name in names], ctx=ast.Store() if store else ast.Load())


def _strings(names):
    return ast.Tuple(elts=[ast.Constant(value=name) for name in names], ctx=ast.Load())


def _function(identifier, params, body):
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg(arg=param) for param in params], vararg=None,
                              kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return ast.FunctionDef(name=identifier, args=arguments, body=body or [ast.Pass()], decorator_list=[],
                           returns=None, type_comment=None)


def _thunk(expression):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                         kwarg=None, defaults=[]), body=expression)


_DIRECT = frozenset(["super", "range", "len", "isinstance", "issubclass", "print", "type", "getattr", "hasattr",
                     "setattr", "int", "float", "bool", "str", "tuple", "list", "dict", "zip", "enumerate", "min",
                     "max", "abs", "sum", "all", "any", "iter", "next", "reversed", "sorted", "map", "filter", "id",
                     "round", "divmod", "pow", "slice", "set", "frozenset", "repr", "callable", "vars", "locals"])
# Builtins converted code routes through runtime.call: MindSpore's static graph materialises these
# as sequences (sequences.SEQUENCE_BUILTINS) and converts one-element arrays to numbers; it interprets id and
# callable, constants only below LAX (interpreted_calls); len, max, min, isinstance, int, float, bool raise its errors.
_ROUTED_BUILTINS = frozenset(["map", "zip", "range", "enumerate", "filter", "float", "int", "complex", "len", "id",
                              "callable", "max", "min", "isinstance", "bool"])


def _effects(statements, names):
    """None, or a thunk giving the side effects' descriptions (checked only when the condition is traced)."""
    found = side_effects(statements, names)
    if not found:
        return ast.Constant(value=None)
    items = [ast.Constant(value=item) if isinstance(item, str) else
             _call("attribute_effect", _name(item[0]), ast.Constant(value=item[1]), ast.Constant(value=item[2]))
             for item in found]
    return _thunk(ast.Tuple(elts=items, ctx=ast.Load()))


def read_names(statements):
    """The names ``statements`` read anywhere (nested functions included; ``x += 1`` reads ``x``): a name
    outside this set is never used, so no join of its values can be observed."""
    found = set()
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                found.add(node.id)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                found.add(node.target.id)
    return found


def assignment_lines(statements):
    """``{name: [line, ...]}`` of the assignment statements (``=``, ``+=``, annotated) in ``statements``."""
    found = {}
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            else:
                continue
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and hasattr(node, "lineno"):
                        found.setdefault(name.id, []).append(node.lineno)
    return found


class _Loop:
    __slots__ = ("break_flag", "continue_flag")

    def __init__(self, break_flag, continue_flag):
        self.break_flag = break_flag
        self.continue_flag = continue_flag


class JumpLowering:
    """Pass 1: flags instead of ``break``/``continue``/``return`` inside control flow."""

    def __init__(self):
        self.count = 0
        self.lower_returns = False

    def function_body(self, body):
        compound = [statement for statement in body if isinstance(statement, (ast.If, ast.While, ast.For))]
        self.lower_returns = has_jump(compound, (ast.Return,))
        lowered, _ = self.block(body, None)
        if not self.lower_returns:
            return lowered
        start = [_assign(RETURN_FLAG, ast.Constant(value=False)),
                 _assign(RETURN_VALUE, _runtime("RETURN_PENDING"))]
        return start + lowered + [ast.Return(value=_name(RETURN_VALUE))]

    def block(self, statements, loop):
        lowered = []
        for index, statement in enumerate(statements):
            new, flags = self.statement(statement, loop)
            lowered.extend(new)
            if flags:
                rest, rest_flags = self.block(statements[index + 1:], loop)
                if rest:
                    guard = ast.If(test=_call("not_any", *[_name(flag) for flag in sorted(flags)]), body=rest,
                                   orelse=[])
                    lowered.append(ast.copy_location(guard, statements[index + 1]))
                return lowered, flags | rest_flags
        return lowered, set()

    def statement(self, statement, loop):
        located = lambda nodes: [ast.copy_location(node, statement) for node in nodes]  # noqa: E731
        if isinstance(statement, ast.Return) and self.lower_returns:
            value = statement.value or ast.Constant(value=None)
            return located([_assign(RETURN_VALUE, value), _assign(RETURN_FLAG, ast.Constant(value=True))]), \
                {RETURN_FLAG}
        if isinstance(statement, ast.Break) and loop is not None:
            return located([_assign(loop.break_flag, ast.Constant(value=True))]), {loop.break_flag}
        if isinstance(statement, ast.Continue) and loop is not None:
            return located([_assign(loop.continue_flag, ast.Constant(value=True))]), {loop.continue_flag}
        if isinstance(statement, ast.If):
            statement.body, body_flags = self.block(statement.body, loop)
            statement.orelse, else_flags = self.block(statement.orelse, loop)
            statement.body = statement.body or [ast.Pass()]
            return [statement], body_flags | else_flags
        if isinstance(statement, (ast.While, ast.For)):
            return self.loop(statement)
        return [statement], set()

    def loop(self, statement):
        self.count += 1
        breaks = has_jump(statement.body, (ast.Break,))
        continues = has_jump(statement.body, (ast.Continue,))
        loop = _Loop(f"{HELPER_PREFIX}break_{self.count}" if breaks else None,
                     f"{HELPER_PREFIX}continue_{self.count}" if continues else None)
        body, flags = self.block(statement.body, loop)
        if continues:
            body = [ast.copy_location(_assign(loop.continue_flag, ast.Constant(value=False)), statement)] + body
        statement.body = body or [ast.Pass()]
        outer_flags = flags & {RETURN_FLAG}
        stops = sorted(({loop.break_flag} if breaks else set()) | outer_flags)
        before = []
        if breaks:
            before.append(ast.copy_location(_assign(loop.break_flag, ast.Constant(value=False)), statement))
        if stops:
            keep_going = _call("not_any", *[_name(flag) for flag in stops])
            if isinstance(statement, ast.While):
                statement.test = ast.BoolOp(op=ast.And(), values=[keep_going, statement.test])
                statement.test.sporax_generated = True  # not the user's 'and': no join rules (runtime.and_)
            else:
                statement.extra_test = keep_going
        return before + [statement], outer_flags


class ControlFlowRewriter(ast.NodeTransformer):
    """Pass 2: ``if``/``while``/``for`` and boolean expressions -> runtime calls."""

    def __init__(self, self_name=None, assignment_lines=None, owner=None, read=None):
        self.count = 0
        self.read = read  # the names the function reads (``read_names``); None: take every name as read
        self.self_name = self_name
        self.owner = owner  # the qualified name of the class whose method this is (runtime.call_instance)
        self.assignment_lines = assignment_lines or {}  # name -> lines assigning it in the whole function

    def _next(self):
        self.count += 1
        return self.count

    # Nested functions, lambdas and classes keep their Python (they are not construct's control flow).
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef

    def visit_Lambda(self, node):
        # Marked: MindSpore parses a lambda written in the compiled code with it, whatever its line holds.
        return ast.copy_location(_call("inline_lambda", node), node)

    def _branch_lines(self, node, names):
        """Per name, the lines of its last assignment in the true and the false branch (one before the
        ``if`` when a branch leaves it alone; 0 when none): where a join error shows the two values. None
        for a name the function never reads (``for _ in ...``): MindSpore joins no unused value."""
        before = {name: max([line for line in self.assignment_lines.get(name, ()) if line < node.lineno],
                            default=0) for name in names}
        pairs = []
        for name in names:
            pair = []
            for branch in (node.body, node.orelse):
                lines = assignment_lines(branch).get(name, ())
                pair.append(max(lines) if lines else before[name])
            pairs.append(tuple(pair) if self.read is None or name in self.read else None)
        return ast.Constant(value=tuple(pairs))

    def visit_If(self, node):
        lines = self._branch_lines(node, assigned_names(node.body + node.orelse))
        self.generic_visit(node)
        names = assigned_names(node.body + node.orelse)
        number = self._next()
        true_name, false_name = f"{HELPER_PREFIX}if_true_{number}", f"{HELPER_PREFIX}if_false_{number}"
        results = [ast.Return(value=_tuple(names))]
        statements = [
            _function(true_name, names, node.body + results),
            _function(false_name, names, node.orelse + results),
            ast.Assign(targets=[_tuple(names, store=True)],
                       value=_call("if_stmt", node.test, _name(true_name), _name(false_name), _tuple(names),
                                   _strings(names), ast.Constant(value=node.lineno),
                                   _effects(node.body + node.orelse, names), lines)),
        ]
        return [ast.copy_location(statement, node) for statement in statements]

    def visit_While(self, node):
        self.generic_visit(node)
        names = assigned_names(node.body)
        number = self._next()
        test_name, body_name = f"{HELPER_PREFIX}while_test_{number}", f"{HELPER_PREFIX}while_body_{number}"
        statements = [
            _function(test_name, names, [ast.Return(value=node.test)]),
            _function(body_name, names, node.body + [ast.Return(value=_tuple(names))]),
            ast.Assign(targets=[_tuple(names, store=True)],
                       value=_call("while_stmt", _name(test_name), _name(body_name), _tuple(names),
                                   _strings(names), ast.Constant(value=node.lineno),
                                   _effects(node.body, names))),
        ]
        return [ast.copy_location(statement, node) for statement in statements]

    def visit_For(self, node):
        node.iter.sporax_for_iter = True  # a loop's own range/zip/enumerate stays lazy (runtime.for_stmt)
        self.generic_visit(node)
        extra = getattr(node, "extra_test", None)
        if extra is not None:
            extra = self.visit(extra)
        item = f"{HELPER_PREFIX}item"
        bind_target = ast.copy_location(ast.Assign(targets=[node.target], value=_name(item)), node)
        names = assigned_names([bind_target] + node.body)
        number = self._next()
        test_name, body_name = f"{HELPER_PREFIX}for_test_{number}", f"{HELPER_PREFIX}for_body_{number}"
        iterable = node.iter
        if (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range"
                and not iterable.keywords):
            iterable = _call("range_", *iterable.args)
        statements = []
        test = ast.Constant(value=None)
        if extra is not None:
            statements.append(_function(test_name, names, [ast.Return(value=extra)]))
            test = _name(test_name)
        statements += [
            _function(body_name, [item] + names, [bind_target] + node.body + [ast.Return(value=_tuple(names))]),
            ast.Assign(targets=[_tuple(names, store=True)],
                       value=_call("for_stmt", iterable, test, _name(body_name), _tuple(names), _strings(names),
                                   ast.Constant(value=node.lineno), _effects(node.body, names))),
        ]
        return [ast.copy_location(statement, node) for statement in statements]

    def visit_GeneratorExp(self, node):
        # MindSpore's graph evaluates a generator expression to a list (a generator cannot leave a graph)
        self.generic_visit(node)
        return ast.copy_location(ast.ListComp(elt=node.elt, generators=node.generators), node)

    def visit_Return(self, node):
        self.generic_visit(node)
        if node.value is not None:
            node.value = _call("result", node.value, _name(PENDING_ERRORS))
        return node

    def visit_Raise(self, node):
        self.generic_visit(node)
        if node.exc is not None:  # MindSpore's graph words a constant raise's text its own way (raise_statement)
            node.exc = ast.copy_location(_call("raised", node.exc), node.exc)
        return node

    def visit_Assert(self, node):
        self.generic_visit(node)
        if node.msg is not None:  # quoted as a constant raise's text (raise_statement.assert_message)
            node.msg = ast.copy_location(_call("assert_message", node.msg), node.msg)
        return node

    def visit_JoinedStr(self, node):
        # An f-string: runtime.formatted keeps a traced tensor for a graph print (formatted_strings)
        parts, values = [], []
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                part.value = self.visit(part.value)
                spec = part.format_spec
                if spec is not None and not all(isinstance(piece, ast.Constant) for piece in spec.values):
                    return node  # a computed format spec: Python formats it
                parts.append((part.conversion, "".join(piece.value for piece in spec.values) if spec else ""))
                values.append(part.value)
            else:
                parts.append(part.value)
        if not values:
            return node
        return ast.copy_location(_call("formatted", ast.Constant(value=tuple(parts)), *values), node)

    def visit_IfExp(self, node):
        self.generic_visit(node)
        return ast.copy_location(_call("if_exp", node.test, _thunk(node.body), _thunk(node.orelse),
                                       ast.Constant(value=node.lineno)), node)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        function = "and_" if isinstance(node.op, ast.And) else "or_"
        call = _call(function, *[_thunk(value) for value in node.values])
        if not getattr(node, "sporax_generated", False):
            call.keywords = [ast.keyword(arg="line", value=ast.Constant(value=node.lineno))]
        return ast.copy_location(call, node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_call("not_", node.operand), node)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1:
            return _membership(node)
        operands = [node.left] + node.comparators
        parts = [_membership(ast.copy_location(ast.Compare(left=operands[index], ops=[op],
                                                           comparators=[operands[index + 1]]), node))
                 for index, op in enumerate(node.ops)]
        return ast.copy_location(_call("and_", *[_thunk(part) for part in parts]), node)

    def visit_Call(self, node):
        self.generic_visit(node)
        # Zero-argument super() needs the class cell a class body provides; name it explicitly.
        if (isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args and self.self_name):
            node.args = [_name("__class__"), _name(self.self_name)]
            return node
        if isinstance(node.func, ast.Name) and node.func.id == "print" and not node.keywords:
            # MindSpore's graph types the returned value before a print's arguments (runtime.print_)
            arguments = ast.Tuple(elts=node.args, ctx=ast.Load())
            return ast.copy_location(_call("print_", node.func, _thunk(arguments), _name(PENDING_ERRORS)), node)
        template = _format_call(node)
        if template is not None:
            # '...'.format(x): an f-string for MindSpore's graph, a traced tensor written when the program runs
            parts, indices = template
            return ast.copy_location(_call("formatted", ast.Constant(value=parts),
                                           *[node.args[index] for index in indices]), node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "has_key" and not node.keywords:
            return ast.copy_location(_call("has_key", node.func.value, *node.args), node)  # dict.has_key
        if (isinstance(node.func, ast.Attribute) and node.func.attr in ("keys", "values", "items")
                and not node.args and not node.keywords):
            return ast.copy_location(_call("dict_view", node.func.value, ast.Constant(value=node.func.attr)), node)
        if isinstance(node.func, ast.Name) and node.func.id in _DIRECT:
            if node.func.id in _ROUTED_BUILTINS and not getattr(node, "sporax_for_iter", False):
                # map/zip/range/enumerate/filter evaluate to a tuple or list, as in MindSpore's graph
                node.args = [node.func] + node.args
                node.func = _runtime("call")
            elif node.func.id == "enumerate":  # a loop's own enumerate: lazy, its 'start' checked as MindSpore does
                node.args = [node.func] + node.args
                node.func = _runtime("loop_iterable")
            return node
        # A user function or method called from converted code is converted too (runtime.call).
        if isinstance(node.func, ast.Subscript) and not isinstance(node.func.slice, (ast.Slice, ast.Constant)):
            # functions[i](...): a traced index selects at run time (runtime.item)
            node.func = ast.copy_location(_call("item", node.func.value, node.func.slice), node.func)
        if self.owner and isinstance(node.func, ast.Name) and node.func.id == self.self_name:
            node.args = [ast.Constant(value=self.owner), node.func] + node.args
            node.func = _runtime("call_instance")
            return node
        node.args = [node.func] + node.args
        node.func = _runtime("call")
        return node


class PrivateNames(ast.NodeTransformer):
    """Mangle ``self.__name`` as the class body would have (the function is recompiled outside it)."""

    def __init__(self, class_name):
        self.prefix = "_" + class_name.lstrip("_")

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if node.attr.startswith("__") and not node.attr.endswith("__"):
            node.attr = self.prefix + node.attr
        return node
