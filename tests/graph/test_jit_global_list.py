"""A jitted function that reverses a module-level list in place and returns it (MindSpore's static-graph
syntax page): MindSpore 2.10 returns that very list object, reversed, and keeps a copy of nothing."""
import sporax as ms
from sporax import Tensor, nn

numbers = [1, 2, 3, 4]
held = [1, 2, 3, 4]
tensors = [Tensor(1.0), Tensor(2.0)]


@ms.jit
def reverse_numbers():
    numbers.reverse()
    return numbers


class Reverser(nn.Cell):
    @ms.jit
    def construct(self):
        held.reverse()
        return held


@ms.jit
def first_after_reverse(x):
    tensors.reverse()
    return x + tensors[0]


def test_the_returned_list_is_the_global_list_reversed():
    output = reverse_numbers()
    assert output == [4, 3, 2, 1] and output is numbers
    output = Reverser()()
    assert output == [4, 3, 2, 1] and output is held


def test_a_list_of_tensors_is_reversed_in_place():
    assert float(first_after_reverse(Tensor(1.0))) == 3.0
    assert [float(item) for item in tensors] == [2.0, 1.0]


@ms.jit
def reverse_argument(values):
    values.reverse()
    return values


def test_a_list_argument_is_reversed_in_place_and_returned_itself():
    # MindSpore 2.10 (its documentation still says a copy): the caller's list is reversed and returned.
    values = [1, 2, 3, 4]
    output = reverse_argument(values)
    assert output == [4, 3, 2, 1] and output is values


def test_a_mutable_list_argument_stays_traced():
    @ms.jit
    def total(values):
        return values[0] + values[1]

    assert float(total(ms.mutable([1.5, 2.5]))) == 4.0
    assert float(total(ms.mutable([2.5, 2.5]))) == 5.0
