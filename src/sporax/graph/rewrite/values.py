"""The values of a rewritten ``construct``: ``ScopedValue``, ``ValueType``, ``NodeType``, and how an AST
expression becomes one."""
import ast
import enum



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
