"""Argument checks in MindSpore's style (``mindspore._checkparam``), for Primitives and Cells.

Each check returns the value it accepted, so ``self.axis = check_value_type("axis", axis, [int],
self.name)`` both validates and stores. Failures raise MindSpore's error types with its wording:
``For 'Prim', the 'arg' must be ...``.

Example:
    >>> from sporax.core import validator
    >>> validator.check_positive_int(3, "window", "Rolling")
    3
"""
import functools
import inspect

from sporax.core import dtype as mstype

# MindSpore's comparison relations (its ``Rel`` values), with its numbering: libraries pass them to
# range checks and import them by name (``from mindspore._checkparam import GT``).
EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
IN, NOT_IN = 11, 12
# The range relations: which ends of [lower, upper] are included.
INC_NEITHER = 7
INC_LEFT = 8
INC_RIGHT = 9
INC_BOTH = 10
_INCLUDED_ENDS = {INC_NEITHER: (False, False), INC_LEFT: (True, False), INC_RIGHT: (False, True),
                  INC_BOTH: (True, True)}
# relation -> (its symbol in messages, the test of ``arg_value`` against ``value``)
_RELATIONS = {EQ: ("=", lambda a, b: a == b), NE: ("!=", lambda a, b: a != b), LT: ("<", lambda a, b: a < b),
              LE: ("<=", lambda a, b: a <= b), GT: (">", lambda a, b: a > b), GE: (">=", lambda a, b: a >= b),
              IN: ("in", lambda a, b: a in b), NOT_IN: ("not in", lambda a, b: a not in b)}


def _prefix(prim_name, arg_name):
    where = f"For '{prim_name}', the" if prim_name else "The"
    return f"{where} '{arg_name}'" if arg_name else f"{where} input"


def _type_names(types):
    return ", ".join(getattr(item, "__name__", str(item)) for item in types)


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    """Check ``arg_value`` is an instance of one of ``valid_types`` (bool is not an int here)."""
    valid_types = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)
    is_bool = isinstance(arg_value, bool)
    ok = isinstance(arg_value, valid_types) and (not is_bool or bool in valid_types)
    if not ok:
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be one of [{_type_names(valid_types)}], "
                        f"but got {type(arg_value).__name__}.")
    return arg_value


def check_bool(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a bool."""
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_is_int(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int (not a bool)."""
    if isinstance(arg_value, bool) or not isinstance(arg_value, int):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be an int, but got {type(arg_value).__name__}.")
    return arg_value


def check_is_float(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float."""
    if not isinstance(arg_value, float):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be a float, but got {type(arg_value).__name__}.")
    return arg_value


def _check_number(arg_value, arg_name, prim_name, kinds, test, relation):
    if isinstance(arg_value, bool) or not isinstance(arg_value, kinds):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be {_type_names(kinds)}, "
                        f"but got {type(arg_value).__name__}.")
    if not test(arg_value):
        raise ValueError(f"{_prefix(prim_name, arg_name)} must be {relation}, but got {arg_value}.")
    return arg_value


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int > 0."""
    return _check_number(arg_value, arg_name, prim_name, (int,), lambda v: v > 0, "a positive int (> 0)")


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int >= 0."""
    return _check_number(arg_value, arg_name, prim_name, (int,), lambda v: v >= 0, "a non-negative int (>= 0)")


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float > 0."""
    return _check_number(arg_value, arg_name, prim_name, (float,), lambda v: v > 0, "a positive float (> 0)")


def check_non_negative_float(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float >= 0."""
    return _check_number(arg_value, arg_name, prim_name, (float,), lambda v: v >= 0,
                         "a non-negative float (>= 0)")


def _included_ends(relation):
    """``(left, right)`` inclusion from a pair of bools or one of MindSpore's INC_* relations."""
    if isinstance(relation, (tuple, list)):
        return tuple(relation)
    if relation not in _INCLUDED_ENDS:
        raise ValueError(f"The range relation must be one of INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH "
                         f"(mindspore._checkparam) or a pair of bools, but got {relation!r}.")
    return _INCLUDED_ENDS[relation]


def _range_text(lower_limit, upper_limit, ends):
    return ("[" if ends[0] else "(") + f"{lower_limit}, {upper_limit}" + ("]" if ends[1] else ")")


def _in_range(value, lower_limit, upper_limit, ends):
    low_ok = value >= lower_limit if ends[0] else value > lower_limit
    high_ok = value <= upper_limit if ends[1] else value < upper_limit
    return low_ok and high_ok


def check_int_range(arg_value, lower_limit, upper_limit, inclusive=(True, True), arg_name=None, prim_name=None):
    """Check ``lower_limit <=/< arg_value <=/< upper_limit`` for an int.

    ``inclusive`` is a pair of bools (left, right) or, as MindSpore's positional ``rel``, one of INC_NEITHER,
    INC_LEFT, INC_RIGHT, INC_BOTH.
    """
    ends = _included_ends(inclusive)
    return _check_number(arg_value, arg_name, prim_name, (int,),
                         lambda v: _in_range(v, lower_limit, upper_limit, ends),
                         f"in range {_range_text(lower_limit, upper_limit, ends)}")


def check_float_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float inside the range ``rel`` (INC_LEFT: ``[lower, upper)``, ...) describes.

    An int or bool is refused (TypeError), as MindSpore's check does; a float outside raises ValueError.
    """
    ends = _included_ends(rel)
    if not isinstance(arg_value, float):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be 'float',  but got '{type(arg_value).__name__}'.")
    if not _in_range(arg_value, lower_limit, upper_limit, ends):
        raise ValueError(f"{_prefix(prim_name, arg_name)} must be in range of "
                         f"{_range_text(lower_limit, upper_limit, ends)}, but got {arg_value} with type 'float'.")
    return arg_value


def check_string(arg_value, valid_values, arg_name=None, prim_name=None):
    """Check ``arg_value`` is one of the strings ``valid_values``.

    The message quotes ``valid_values`` as given (a tuple stays a tuple) and the value's ``str``, and an unnamed
    argument is 'parameter', as MindSpore 2.10 words it (libraries such as mindformers show it to their users).
    """
    if not isinstance(arg_value, str) or arg_value not in valid_values:
        raise ValueError(f"{_prefix(prim_name, arg_name or 'parameter')} must be str and must be in "
                         f"'{valid_values}', but got '{arg_value}'.")
    return arg_value


def check_tensor_dtype_valid(arg_name, arg_type, valid_dtypes, prim_name=None, ret_element_type=False):
    """Check a tensor type (``mstype.tensor_type(x)`` or an element dtype) is in ``valid_dtypes``."""
    element = getattr(arg_type, "element_type", None)
    element = element() if callable(element) else (element or arg_type)
    element = mstype.normalize(element)
    valid = [mstype.normalize(item) for item in valid_dtypes]
    if element not in valid:
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be a Tensor with dtype in "
                        f"{[str(item) for item in valid]}, but got {element}.")
    return element if ret_element_type else arg_type


def check_type_name(arg_name, arg_type, valid_types, prim_name=None):
    """Check ``arg_type`` is one of ``valid_types``, by plain membership as MindSpore checks it.

    A Python or NumPy type does not stand in for its dtype (``float`` is not ``float32``), and the valid
    items may be any values: mindformers checks activation names ('gelu') with it.

    Args:
        arg_name (str): the argument's name, for the error.
        arg_type: the value checked (a dtype, a type, a name...).
        valid_types (list, tuple): the values it may take.
        prim_name (str): the operator or Cell that checks, for the error.

    Outputs:
        ``arg_type``. Raises TypeError when it is not in ``valid_types``.

    Example:
        >>> check_type_name("non_linearity", "gelu", ["relu", "gelu"], "AdapterLayer")
        'gelu'
    """
    if arg_type in valid_types:
        return arg_type
    expected = f"one of {[str(t) for t in valid_types]}" if len(valid_types) > 1 else str(valid_types[0])
    raise TypeError(f"{_prefix(prim_name, arg_name)} should be {expected}, but got {arg_type!r}.")


def args_type_check(*type_args, **type_kwargs):
    """Decorator: check the types of a function's arguments on each call (MindSpore's ``args_type_check``).

    Types are given positionally or by parameter name, as ``isinstance`` accepts them; an argument the
    call leaves at its default is not checked.

    Raises:
        TypeError: an argument is not of its type, naming the parameter and both types.

    Example:
        >>> @args_type_check(path=str)
        ... def load(path, strict=True):
        ...     return path
        >>> load("a.ckpt")
        'a.ckpt'
    """
    def decorator(function):
        signature = inspect.signature(function)
        expected = signature.bind_partial(*type_args, **type_kwargs).arguments

        @functools.wraps(function)
        def checked(*args, **kwargs):
            for name, value in signature.bind(*args, **kwargs).arguments.items():
                if name in expected and not isinstance(value, expected[name]):
                    raise TypeError(f"The parameter '{name}' must be {expected[name]}, but got {type(value)}")
            return function(*args, **kwargs)
        return checked
    return decorator


def check(arg_name, arg_value, value_name, value, rel=EQ, prim_name=None, excp_cls=ValueError):
    """Check ``arg_value`` stands in relation ``rel`` (EQ, NE, LT, LE, GT, GE, IN, NOT_IN) to ``value``;
    returns ``arg_value``, else raises ``excp_cls`` saying what was expected."""
    if rel not in _RELATIONS:
        raise ValueError(f"The relation must be one of EQ, NE, LT, LE, GT, GE, IN, NOT_IN (mindspore._checkparam), "
                         f"but got {rel!r}.")
    symbol, test = _RELATIONS[rel]
    if not test(arg_value, value):
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        subject = f"{prefix} '{arg_name}'" if " " not in arg_name else f"{prefix} {arg_name}"
        raise excp_cls(f"{subject} should be {symbol} {value_name}: {value}, but got {arg_value}.")
    return arg_value


def _compare_number(arg_value, value, rel, kind, arg_name, prim_name):
    symbol, test = _RELATIONS[rel]
    named = f"'{arg_name}'" if arg_name is not None else "input value"
    subject = f"For '{prim_name}', the {named}" if prim_name else f"The {named}"
    expected = f"{kind.__name__} and must {symbol} {value}"
    if isinstance(arg_value, bool):
        raise TypeError(f"{subject} must be {expected}, but got '{arg_value}' with type 'bool'.")
    if not isinstance(arg_value, kind):
        raise TypeError(f"{subject} must be {kind.__name__}, but got '{type(arg_value).__name__}'")
    if not test(arg_value, value):
        raise ValueError(f"{subject} must be {expected}, but got '{arg_value}' with type '{type(arg_value).__name__}'.")
    return arg_value


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    """Check the int ``arg_value`` stands in relation ``rel`` to ``value`` (``check_int(n, 0, GT, "n")``: n > 0)."""
    return _compare_number(arg_value, value, rel, int, arg_name, prim_name)


def check_equal_int(arg_value, value, arg_name=None, prim_name=None):
    """Check the int ``arg_value`` equals ``value``."""
    return _compare_number(arg_value, value, EQ, int, arg_name, prim_name)


def check_isinstance(arg_name, arg_value, classes):
    """Check ``arg_value`` is an instance of ``classes`` (a type or a tuple of types; bool counts as int here)."""
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got {arg_value}.")
    return arg_value


def _is_plain_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


# The wording of the two converter families' errors: (what is expanded, what a container is called, the types taken)
_EXPANSION_WORDS = {tuple: ("an int number", "input tuple", "integer or tuple[int]"),
                    (tuple, list): ("an sequence", "input sequence", "integer or tuple[int]/list[int]")}


def _expand(count, containers):
    """A converter of an int or a container of ``count`` ints to a tuple of ``count`` ints (MindSpore's once/twice/
    triple take tuples, the ``_sequence`` forms lists too: Cells take ``kernel_size=3`` or ``(3, 5)``)."""
    subject, container, accepted = _EXPANSION_WORDS[containers]

    def convert(value):
        if _is_plain_int(value):
            return (value,) * count
        if not isinstance(value, containers):
            expanding = "an int number" if containers is tuple else "an input"
            raise TypeError(f"When expanding {expanding} to tuple, input type must be {accepted}, "
                            f"but got {type(value)}")
        if len(value) != count:
            raise TypeError(f"When expanding {subject} to tuple, {container} dimension must be {count}, "
                            f"but got {value}")
        for item in value:
            if not _is_plain_int(item):
                raise TypeError(f"When expanding {subject} to tuple, the type of element in {container} must be "
                                f"an integer, but got {type(item)}.")
        return tuple(value)
    return convert


once, twice, triple = (_expand(count, tuple) for count in (1, 2, 3))
once_sequence, twice_sequence, triple_sequence = (_expand(count, (tuple, list)) for count in (1, 2, 3))


def check_float(arg_value, value, rel, arg_name=None, prim_name=None):
    """Check the float ``arg_value`` stands in relation ``rel`` to ``value`` (``check_float(x, 0.0, GE, "x")``)."""
    return _compare_number(arg_value, value, rel, float, arg_name, prim_name)


def check_number(arg_name, arg_value, value, rel, prim_name):
    """Check the number ``arg_value`` stands in relation ``rel`` to ``value`` (any number type, bool included)."""
    symbol, test = _RELATIONS[rel]
    if not test(arg_value, value):
        raise ValueError(f"For '{prim_name}', the argument '{arg_name}' must {symbol} {value}, but got {arg_value}.")
    return arg_value


def check_subclass(arg_name, type_, template_types, prim_name, addition_error_info=None):
    """Check the dtype ``type_`` is one of ``template_types`` (a dtype or an iterable of them)."""
    templates = tuple(template_types) if isinstance(template_types, (tuple, list, set, frozenset)) else (template_types,)
    if any(type_ == template for template in templates):
        return
    extra = "" if addition_error_info is None else " " + addition_error_info
    got = f"type '{type(type_).__name__}'" if isinstance(type_, (tuple, list)) else str(type_)
    raise TypeError(f"For '{prim_name}', the element of '{arg_name}' must be {'one of ' if len(templates) > 1 else ''}"
                    f"{', '.join(str(template) for template in templates)}, but got {got}{extra}.The supported data "
                    "types depend on the hardware that executes the operator, for more details, please refer to the "
                    "MindSpore official website to get more information about the data type.")


class Validator:
    """MindSpore's older spelling: the same checks as static methods (``Validator.check_bool``)."""


for _check in (check, check_int, check_equal_int, check_isinstance, check_float, check_number, check_subclass, check_value_type, check_bool, check_is_int, check_is_float, check_positive_int,
               check_non_negative_int, check_positive_float, check_non_negative_float, check_int_range, check_float_range,
               check_string, check_tensor_dtype_valid, check_type_name):
    setattr(Validator, _check.__name__, staticmethod(_check))
del _check
# Its relation names too: libraries written for both spellings (mindearth's `validator.check(..., rel=validator.EQ)`)
# import the class when it is there and read the relations from it.
for _relation in ("EQ", "NE", "LT", "LE", "GT", "GE", "IN", "NOT_IN", "INC_NEITHER", "INC_LEFT", "INC_RIGHT", "INC_BOTH"):
    setattr(Validator, _relation, globals()[_relation])
del _relation
