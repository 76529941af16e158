"""``mindspore._checkparam``'s relation checks (check, check_int, check_float, check_number, check_subclass):
values returned and errors raised as MindSpore 2.10 (messages recorded from it)."""
import pytest

from sporax.core import dtype as mstype
from sporax.core import validator as v


def test_passing_checks_return_the_value():
    assert v.check("betas size", 2, "", [2], v.IN, "AdamW") == 2
    assert v.check_int(3, 0, v.GT, "n", "P") == 3
    assert v.check_float(0.5, 0.0, v.GT, "lr", "AdamW") == 0.5
    assert v.check_number("x", True, 0, v.GE, None) is True
    assert v.check_subclass("dtype", mstype.float32, mstype.float32, "D") is None
    assert v.Validator.check_float is v.check_float
    # mindearth reads the relations from the class when it imports: MindSpore 2.10's values (EQ is 1, LE 4)
    assert (v.Validator.EQ, v.Validator.LE, v.Validator.INC_LEFT) == (1, 4, 8)
    assert v.Validator.check("shape_length", 2, "expected_shape_length", 2, rel=v.Validator.EQ) == 2


@pytest.mark.parametrize("call, error, message", [
    (lambda: v.check("x", 3, "y", 2, v.EQ, None), ValueError, "The 'x' should be = y: 2, but got 3."),
    (lambda: v.check("x", 3, "y", [1, 2], v.IN, None), ValueError, "The 'x' should be in y: [1, 2], but got 3."),
    (lambda: v.check("x", 1, "y", 2, v.EQ, None, TypeError), TypeError, "The 'x' should be = y: 2, but got 1."),
    (lambda: v.check_int(0, 0, v.GT, "n", None), ValueError, "The 'n' must be int and must > 0, but got '0' with type 'int'."),
    (lambda: v.check_int(1.0, 0, v.GT, "n", None), TypeError, "The 'n' must be int, but got 'float'"),
    (lambda: v.check_int(True, 0, v.GT, "n", None), TypeError,
     "The 'n' must be int and must > 0, but got 'True' with type 'bool'."),
    (lambda: v.check_float(0.0, 0.0, v.GT, "eps", "P"), ValueError,
     "For 'P', the 'eps' must be float and must > 0.0, but got '0.0' with type 'float'."),
    (lambda: v.check_float(1.5, [1.0, 2.0], v.IN, "f", None), ValueError,
     "The 'f' must be float and must in [1.0, 2.0], but got '1.5' with type 'float'."),
    (lambda: v.check_number("x", -1, 0, v.GE, None), ValueError, "For 'None', the argument 'x' must >= 0, but got -1."),
    (lambda: v.check_subclass("dtype", mstype.int8, (mstype.float32, mstype.float16), "D", "x"), TypeError,
     "For 'D', the element of 'dtype' must be one of Float32, Float16, but got Int8 x.The supported data types"),
])
def test_failing_checks_raise_as_mindspore(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value).startswith(message)
