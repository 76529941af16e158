"""mindspore._checkparam's range checks: the INC_* relations and check_float_range, with MindSpore 2.10's
results and messages (recorded from it); libraries validate a dropout rate with
``check_float_range(rate, 0.0, 1.0, INC_LEFT)``."""
import pytest

from sporax.core import validator


def test_relation_constants_have_mindspores_values():
    assert (validator.INC_NEITHER, validator.INC_LEFT, validator.INC_RIGHT, validator.INC_BOTH) == (7, 8, 9, 10)


@pytest.mark.parametrize("value,relation", [(0.5, validator.INC_LEFT), (0.0, validator.INC_LEFT),
                                            (1.0, validator.INC_BOTH), (1.0, validator.INC_RIGHT)])
def test_check_float_range_returns_a_value_inside(value, relation):
    assert validator.check_float_range(value, 0.0, 1.0, relation, "p", "Op") == value
    assert validator.Validator.check_float_range(value, 0.0, 1.0, relation) == value


@pytest.mark.parametrize("value,relation,message", [
    (1.0, validator.INC_LEFT, "For 'Op', the 'p' must be in range of [0.0, 1.0), but got 1.0 with type 'float'."),
    (0.0, validator.INC_NEITHER, "For 'Op', the 'p' must be in range of (0.0, 1.0), but got 0.0 with type 'float'."),
])
def test_check_float_range_refuses_a_value_outside(value, relation, message):
    with pytest.raises(ValueError) as info:
        validator.check_float_range(value, 0.0, 1.0, relation, "p", "Op")
    assert str(info.value) == message


@pytest.mark.parametrize("value,kind", [(0, "int"), (True, "bool"), ("a", "str")])
def test_check_float_range_refuses_a_non_float(value, kind):
    with pytest.raises(TypeError, match=f"For 'Op', the 'p' must be 'float',  but got '{kind}'."):
        validator.check_float_range(value, 0.0, 1.0, validator.INC_LEFT, "p", "Op")


def test_check_int_range_takes_mindspores_relation_too():
    assert validator.check_int_range(3, 0, 3, validator.INC_BOTH, "k", "Op") == 3
    with pytest.raises(ValueError, match=r"For 'Op', the 'k' must be in range \[0, 3\), but got 3"):
        validator.check_int_range(3, 0, 3, validator.INC_LEFT, "k", "Op")
    with pytest.raises(ValueError, match="INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH"):
        validator.check_float_range(0.5, 0.0, 1.0, 99, "p", "Op")


def test_relation_constants_carry_mindspores_numbering():
    # Recorded on MindSpore 2.10 (mindspore._checkparam): EQ 1, NE 2, LT 3, LE 4, GT 5, GE 6, IN 11, NOT_IN 12.
    assert (validator.EQ, validator.NE, validator.LT, validator.LE, validator.GT, validator.GE) == (1, 2, 3, 4, 5, 6)
    assert (validator.IN, validator.NOT_IN) == (11, 12)


def test_args_type_check_checks_each_named_argument_as_mindspore():
    @validator.args_type_check(a=int, b=(str, type(None)))
    def function(a, b=None, c=0):
        return a, b, c

    assert function(1) == (1, None, 0) and function(a=2, b="x", c=[]) == (2, "x", [])
    assert function(True) == (True, None, 0)  # isinstance: a bool is an int, as in MindSpore
    # The messages MindSpore 2.10 raises for the same calls.
    with pytest.raises(TypeError, match=r"^The parameter 'a' must be <class 'int'>, but got <class 'float'>$"):
        function(1.5)
    with pytest.raises(TypeError, match=r"^The parameter 'b' must be \(<class 'str'>, <class 'NoneType'>\), "
                                        r"but got <class 'int'>$"):
        function(1, b=3)
    assert function.__name__ == "function"


def test_args_type_check_takes_types_by_position_too():
    @validator.args_type_check(int, b=str)
    def function(a, b="x"):
        return a

    with pytest.raises(TypeError, match=r"^The parameter 'a' must be <class 'int'>, but got <class 'str'>$"):
        function("q")
    assert function(4, b="y") == 4


def test_check_type_name_is_plain_membership():
    """mindformers' _valid_value_checks passes activation names through ``Validator.check_type_name``
    (mindpet's AdapterLayer, non_linearity='gelu'). Accepted/rejected as recorded from MindSpore 2.10:
    any values compare by membership, and a Python/NumPy type does not stand in for its dtype."""
    import numpy as np
    import pytest
    from sporax.core import validator as V
    import sporax as ms
    assert V.check_type_name("non_linearity", "gelu", ["relu", "gelu"], "AdapterLayer") == "gelu"
    assert V.check_type_name("a", ms.float32, [ms.float32, ms.float16], "Prim") is ms.float32
    assert V.check_type_name("a", 3, [3, 4], "Prim") == 3
    assert V.check_type_name("a", bool, [bool, int], "Prim") is bool
    for value, valid in (("tanh", ["relu", "gelu"]), (ms.int32, [ms.float32]), ("gelu", [ms.float32]),
                         (float, [ms.float32]), (np.float32, [ms.float32]), (ms.float32, [np.float32]),
                         (None, ["gelu"]), (5, [3, 4])):
        with pytest.raises(TypeError, match="For 'Prim', the 'a' should be"):
            V.check_type_name("a", value, valid, "Prim")


@pytest.mark.parametrize("args,message", [  # recorded from MindSpore 2.10's _checkparam.check_string
    (("b", ["a", "c"], "x", "Op"), "For 'Op', the 'x' must be str and must be in '['a', 'c']', but got 'b'."),
    (("b", ("a", "c"), "x", None), "The 'x' must be str and must be in '('a', 'c')', but got 'b'."),
    ((3, ["a"], "x", "Op"), "For 'Op', the 'x' must be str and must be in '['a']', but got '3'."),
    (("b", ["a"], None, None), "The 'parameter' must be str and must be in '['a']', but got 'b'."),
])
def test_check_string_refuses_with_mindspores_message(args, message):
    with pytest.raises(ValueError) as info:
        validator.check_string(*args)
    assert str(info.value) == message


def test_check_string_returns_a_valid_value():
    assert validator.check_string("c", ("a", "c"), "x", "Op") == "c"
