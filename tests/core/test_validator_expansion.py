"""``mindspore._checkparam``'s int-to-tuple converters (once/twice/triple and their ``_sequence`` forms),
check_equal_int and check_isinstance: results and errors as recorded on MindSpore 2.10 CPU (MindSpore Golden
Stick imports ``twice`` at 'import mindspore_gs')."""
import numpy as np
import pytest

from sporax.core import validator as v

_TUPLE_TYPE = "When expanding an int number to tuple, input type must be integer or tuple[int], but got "
_SEQUENCE_TYPE = "When expanding an input to tuple, input type must be integer or tuple[int]/list[int], but got "


@pytest.mark.parametrize("convert, value, expected", [
    (v.once, 3, (3,)), (v.once, (2,), (2,)), (v.twice, 3, (3, 3)), (v.twice, (2, 3), (2, 3)),
    (v.triple, 3, (3, 3, 3)), (v.triple, (1, 2, 3), (1, 2, 3)),
    (v.once_sequence, [5], (5,)), (v.twice_sequence, [2, 3], (2, 3)), (v.twice_sequence, (2, 3), (2, 3)),
    (v.triple_sequence, 3, (3, 3, 3)),
])
def test_expansion_results(convert, value, expected):
    assert convert(value) == expected


@pytest.mark.parametrize("convert, value, message", [
    (v.twice, (1, 2, 3), "When expanding an int number to tuple, input tuple dimension must be 2, but got (1, 2, 3)"),
    (v.twice, (), "When expanding an int number to tuple, input tuple dimension must be 2, but got ()"),
    (v.twice, [4, 5], _TUPLE_TYPE + "<class 'list'>"),
    (v.twice, True, _TUPLE_TYPE + "<class 'bool'>"),
    (v.triple, np.int64(3), _TUPLE_TYPE + "<class 'numpy.int64'>"),
    (v.once, 2.0, _TUPLE_TYPE + "<class 'float'>"),
    (v.twice, (2.0, 3), "When expanding an int number to tuple, the type of element in input tuple must be an "
                        "integer, but got <class 'float'>."),
    (v.twice, (True, 2), "When expanding an int number to tuple, the type of element in input tuple must be an "
                         "integer, but got <class 'bool'>."),
    (v.once_sequence, [2, 3], "When expanding an sequence to tuple, input sequence dimension must be 1, but got [2, 3]"),
    (v.triple_sequence, (2.0, 3), "When expanding an sequence to tuple, input sequence dimension must be 3, "
                                  "but got (2.0, 3)"),
    (v.twice_sequence, (2.0, 3), "When expanding an sequence to tuple, the type of element in input sequence must "
                                 "be an integer, but got <class 'float'>."),
    (v.twice_sequence, (np.int64(2), 2), "When expanding an sequence to tuple, the type of element in input "
                                         "sequence must be an integer, but got <class 'numpy.int64'>."),
    (v.twice_sequence, True, _SEQUENCE_TYPE + "<class 'bool'>"),
    (v.twice_sequence, 3.0, _SEQUENCE_TYPE + "<class 'float'>"),
])
def test_expansion_errors(convert, value, message):
    with pytest.raises(TypeError) as caught:
        convert(value)
    assert str(caught.value) == message


def test_check_equal_int_and_isinstance():
    assert v.check_equal_int(3, 3) == 3
    assert v.check_equal_int(3, 3.0) == 3
    assert v.check_isinstance("x", True, int) is True
    assert v.Validator.check_equal_int is v.check_equal_int


@pytest.mark.parametrize("call, error, message", [
    (lambda: v.check_equal_int(3, 4, "x", "Conv"), ValueError,
     "For 'Conv', the 'x' must be int and must = 4, but got '3' with type 'int'."),
    (lambda: v.check_equal_int(3.0, 3), TypeError, "The input value must be int, but got 'float'"),
    (lambda: v.check_equal_int(True, 1, "x"), TypeError, "The 'x' must be int and must = 1, but got 'True' with type 'bool'."),
    (lambda: v.check_equal_int(np.int64(3), 3), TypeError, "The input value must be int, but got 'int64'"),
    (lambda: v.check_int(3, 4, v.EQ), ValueError, "The input value must be int and must = 4, but got '3' with type 'int'."),
    (lambda: v.check_isinstance("x", 3, (float, str)), ValueError,
     "The parameter 'x' must be isinstance of (<class 'float'>, <class 'str'>), but got 3."),
])
def test_check_errors(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message
