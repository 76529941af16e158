"""The converted code's runtime: ``and``/``or`` on a traced Tensor join their two candidate values as
MindSpore 2.10's graph does (a TypeError naming the line for a dtype or Tensor/number mismatch); PyNative
keeps Python's semantics."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor


@ms.jit
def _and(x, y):
    return x and y


@ms.jit
def _or(x, y):
    return x or y


def test_and_or_of_tensors_of_one_dtype_choose_the_value():
    # MindSpore 2.10: Tensor([1]) and Tensor([3]) -> [3]; Tensor([0]) or Tensor([5]) -> [5].
    assert _and(Tensor([1]), Tensor([3])).asnumpy().tolist() == [3]
    assert _or(Tensor([0]), Tensor([5])).asnumpy().tolist() == [5]


@pytest.mark.parametrize("function,x,y,dtypes", [
    (_and, Tensor([1]), Tensor([1.0]), "dtype1 = Float32, dtype2 = Int64"),
    (_or, Tensor([1]), Tensor([1.0]), "dtype1 = Int64, dtype2 = Float32"),
    (_and, Tensor([1.0]), Tensor([1.0], ms.float16), "dtype1 = Float16, dtype2 = Float32"),
])
def test_different_dtypes_raise_mindspores_join_error(function, x, y, dtypes):
    with pytest.raises(TypeError, match="Cannot join the return values of different branches") as error:
        function(x, y)
    assert dtypes in str(error.value)
    assert "return x and y" in str(error.value) or "return x or y" in str(error.value)


def _cast_by_branch(first, second):
    @ms.jit
    def cast(x, y):
        if x > y:
            out = x.astype(first)
        else:
            out = x.astype(second)
        return out

    return cast


def test_an_if_choosing_between_two_float_dtypes_raises_mindspores_join_error():
    # MindSpore 2.10 (the error-analysis tutorial's case, GRAPH_MODE): TypeError 'Cannot join the return values
    # of different branches, perhaps you need to make them equal.' ... 'Type Join Failed: dtype1 = Float32,
    # dtype2 = Float16.'. sporax still promotes two integer dtypes, where MindSpore raises too (values.merge:
    # sporax's gradients carry floats through integer computations)
    with pytest.raises(TypeError, match=r"^Cannot join the return values of different branches, perhaps you need "
                                        r"to make them equal\.\nType Join Failed: dtype1 = Float32, dtype2 = Float16\."):
        _cast_by_branch(ms.float32, ms.float16)(Tensor(1.0, ms.float32), Tensor(2.0, ms.float32))
    assert _cast_by_branch(ms.int32, ms.int64)(Tensor(1, ms.int32), Tensor(2, ms.int32)).dtype == ms.int64


def test_a_tensor_and_a_python_number_raise_mindspores_join_error():
    @ms.jit
    def tested_with_a_flag(x, flag):
        if x > 0 and flag:
            return x
        return x * 2

    with pytest.raises(TypeError, match="Type Join Failed: dtype1 = Bool, dtype2 = Any"):
        tested_with_a_flag(Tensor(2.0), True)


def test_a_numpy_operand_runs_in_python_as_mindspore():
    @ms.jit
    def with_array(x):
        y = np.array([1, 2, 3, 4])
        return x and y

    # MindSpore 2.10 returns the array when x holds, else x.
    np.testing.assert_array_equal(with_array(Tensor([1])), [1, 2, 3, 4])
    assert with_array(Tensor([0])).asnumpy().tolist() == [0]


def test_tensors_of_different_shapes_give_the_chosen_one():
    # MindSpore 2.10 joins the shapes into a dynamic one: Tensor([0.0]) or Tensor([1.0, 2.0]) -> [1, 2].
    assert _or(Tensor([0.0]), Tensor([1.0, 2.0])).asnumpy().tolist() == [1.0, 2.0]


def test_pynative_keeps_pythons_and():
    # Not compiled: Python's `and` gives the second operand whatever its dtype (MindSpore's PyNative too).
    def plain(x, y):
        return x and y

    assert plain(Tensor([1]), Tensor([2.5])).asnumpy().tolist() == [2.5]


def test_a_print_of_the_same_join_names_the_return_as_mindspore():
    # MindSpore 2.10 types the returned value first: its error shows 'return x and y', not the print.
    @ms.jit
    def prints_then_returns(x, y):
        print(x and y)
        return x and y

    with pytest.raises(TypeError, match="Cannot join the return values") as error:
        prints_then_returns(Tensor([1]), Tensor([1.0]))
    assert "return x and y" in str(error.value)


def test_a_print_join_error_is_raised_at_the_end_when_nothing_else_fails():
    @ms.jit
    def only_prints(x, y):
        print(x and y)
        return x + 1

    with pytest.raises(TypeError, match="print\\(x and y\\)"):
        only_prints(Tensor([1]), Tensor([1.0]))


X2, Y6 = Tensor(2.0), Tensor(6.0)


def _tensor_or_number(x, y):
    if x < y:
        a = Tensor([1, 2, 3])
    else:
        a = 0
    return a


def test_an_if_choosing_a_tensor_or_a_number_raises_mindspores_join_error_with_both_lines():
    assigns = ms.jit(_tensor_or_number)

    @ms.jit
    def returns(x, y):
        if x < y:
            return Tensor([1, 2, 3])
        return 0

    # MindSpore 2.10: TypeError, 'Abstract type AbstractTensor cannot join with AbstractScalar', both lines shown.
    for function, lines in ((assigns, ("a = Tensor([1, 2, 3])", "a = 0")),
                            (returns, ("return Tensor([1, 2, 3])", "return 0"))):
        with pytest.raises(TypeError, match="AbstractTensor cannot join with AbstractScalar") as error:
            function(X2, Y6)
        assert "Cannot join the return values of different branches" in str(error.value)
        assert all(line in str(error.value) for line in lines)


def test_an_unused_variable_may_be_a_tensor_in_one_branch_and_a_number_in_the_other():
    # MindSpore 2.10 joins only the values used afterwards: a loop counter `_` that an inner loop over a
    # traced condition turns into a Tensor in one branch compiles (its high-order control-flow test).
    @ms.jit
    def unused(x, y):
        for _ in range(2):
            while x < y:
                x = x + 1
            if y != x:
                y = y + 1
            elif x >= 0:
                y = y + 2
            else:
                for _ in range(2):
                    y = y - 1
            if x == 3:
                continue
        return x + y

    assert float(unused(Tensor(4.0), Tensor(4.0)).asnumpy()) == 14.0


def test_an_if_choosing_tensors_of_two_dtypes_promotes():
    # A difference from MindSpore 2.10 (TypeError 'dtype1 = Int64, dtype2 = Float32'): inside sporax's
    # gradient an integer computation carries float values, so two dtypes are promoted as before.
    @ms.jit
    def two_dtypes(x, y):
        if x < y:
            a = Tensor([1, 2, 3])
        else:
            a = Tensor([1.0, 2.0, 3.0])
        return a

    assert two_dtypes(X2, Y6).asnumpy().tolist() == [1.0, 2.0, 3.0]


def test_an_if_choosing_tensors_of_one_dtype_compiles():
    @ms.jit
    def one_dtype(x, y):
        if x < y:
            a = x
        else:
            a = y * 2
        return a + 1

    assert float(one_dtype(X2, Y6).asnumpy()) == 3.0


def test_pynative_if_keeps_pythons_values():
    assert _tensor_or_number(X2, Y6).asnumpy().tolist() == [1, 2, 3]


@ms.jit
def _membership(x):
    return (x in (1, ms.Tensor([1, 2, 3])), x in (ms.Tensor([1, 2, 4]), 2), x in (ms.Tensor([1, 2]), "m"),
            x in (x + 1, 5), x in [x - 1, x], x not in (x + 1,), 2 in (1, 2), "m" not in ("m", x))


def test_in_finds_a_tensor_by_shape_and_values():
    # MindSpore 2.10 (ms.jit, x = Tensor([1, 2, 3])): True False False False True True True False
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        results = [bool(value) for value in _membership(ms.Tensor([1, 2, 3]))]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert results == [True, False, False, False, True, True, True, False]


def test_a_tensor_in_a_sequence_answers_a_bool_tensor():
    # MindSpore 2.10 (ms.jit, x = [1., 2., 3.], s = [2.], z = 2.0): each answer a 0-d Bool Tensor, a Tensor
    # never equal to a number: False, False, False, True, False
    @ms.jit
    def members(x, s, z):
        return x in (1, 2), s in (1, 2), z in (2, 3), s in [x, s], x not in (x, s)

    answers = members(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([2.0]), ms.Tensor(2.0))
    assert [(type(answer).__name__, answer.shape, answer.dtype) for answer in answers] == [
        ("Tensor", (), ms.bool_)] * 5
    assert [bool(answer) for answer in answers] == [False, False, False, True, False]


def test_a_number_in_a_sequence_holding_a_many_element_tensor_is_ambiguous():
    # MindSpore 2.10: ValueError 'The tensor should have only one element, but got 3, more than one element
    # is ambiguous.'
    @ms.jit
    def member(x, s):
        return 2 in (x, s)

    with pytest.raises(ValueError, match=r"^The tensor should have only one element, but got 3, more than one "
                                         r"element is ambiguous\."):
        member(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([2.0]))


def test_not_of_a_tensor_keeps_its_shape():
    # MindSpore 2.10 (ms.jit): not Tensor([2.]) is Tensor(shape=[1], dtype=Bool, value=[False]); not of a
    # 3-element tensor raises ValueError '... but got tensor shape is (3)'
    @ms.jit
    def negate(x):
        return not x

    answer = negate(ms.Tensor([2.0]))
    assert (answer.shape, answer.dtype, answer.asnumpy().tolist()) == ((1,), ms.bool_, [False])
    with pytest.raises(ValueError, match=r"^Only tensor which shape is \(\) or \(1,\) can be converted to bool, but "
                                         r"got tensor shape is \(3\)\."):
        negate(ms.Tensor([1.0, 2.0, 3.0]))


def test_is_compares_a_number_a_tensor_loop_carried_with_a_number_literal():
    # MindSpore 2.10 returns (True, False) and (False, True): a stays the int 3 in its graph
    @ms.jit
    def count(x):
        a = 0
        i = 0
        while i < x:
            i = i + 1
            a = a + 1
        return a is 3, a is 2, a is not 3, a is not 2

    assert [bool(value) for value in count(ms.Tensor([3]))] == [True, False, False, True]

    @ms.jit
    def chosen(x):
        a = 0
        if x > 1:
            a = a + 1
        return a is 1, a is 1.0, x is 3  # a Tensor argument is no number
    assert [bool(value) for value in chosen(ms.Tensor([3]))] == [True, False, False]


def test_str_format_in_compiled_code_follows_mindspore_graph():
    # MindSpore 2.10: 'hello 1' and 'hello 2' for numbers, KeyError "'a'" for a Tensor keyword argument,
    # TypeError '... the parameter value is DeadNode' for a Cell argument
    @ms.jit
    def by_keyword(x):
        return "hello {a}".format(a=x)

    assert by_keyword(2) == "hello 2"
    with pytest.raises(KeyError, match="'a'"):
        by_keyword(ms.Tensor([1]))

    class Inner(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.x = 123

    class Outer(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def construct(self):
            return "value is {0.x}".format(self.inner)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(TypeError, match="the parameter value is DeadNode"):
            Outer()()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
