"""map/zip/range/enumerate/filter inside compiled code evaluate to sequences, as in MindSpore 2.10's
static graph (no iterators there): results can be returned, indexed and measured. Values recorded
from MindSpore 2.10 (the graph-syntax tutorial's examples)."""
import warnings
from collections import deque

import numpy as np
import pytest

import sporax as ms


def add(x, y):
    return x + y


def is_odd(x):
    if x % 2:
        return True
    return False


@ms.jit
def sequences():
    return (map(add, (1, 2, 3), (4, 5, 6)), map(add, [0, 1, 2], [6, 7, 8]), zip((1, 2, 3), (4, 5, 6)),
            range(0, 6, 2), range(3), enumerate((100, 200), 3), filter(is_odd, (1, 2, 3, 4, 5)))


def test_builtins_give_mindspore_sequences():
    mapped_tuple, mapped_list, zipped, stepped, short, enumerated, filtered = sequences()
    # MindSpore 2.10: (5, 7, 9) [6, 8, 10] ((1, 4), (2, 5), (3, 6)) (0, 2, 4) (0, 1, 2) ((3, 100), (4, 200)) [1, 3, 5]
    assert mapped_tuple == (5, 7, 9) and mapped_list == [6, 8, 10]
    assert zipped == ((1, 4), (2, 5), (3, 6))
    assert stepped == (0, 2, 4) and short == (0, 1, 2)
    assert enumerated == ((3, 100), (4, 200))
    assert filtered == [1, 3, 5]


def test_sequences_can_be_indexed_and_measured_in_compiled_code():
    @ms.jit
    def pick(x):
        pairs = zip((1, 2, 3), (10, 20, 30))
        return x * pairs[1][1] + len(pairs)

    assert float(pick(ms.tensor(2.0))) == 43.0


def test_loops_over_builtins_still_run():
    @ms.jit
    def loops(x):
        for i, value in enumerate((1.0, 2.0)):
            x = x + i * value
        for i in range(ms.ops.cast(x, ms.int32)):  # a traced range bound stays a compiled loop
            x = x + 1
        return x

    np.testing.assert_allclose(loops(ms.tensor(1.0)).asnumpy(), 6.0)


def test_generator_expression_in_compiled_code_is_a_list():
    # MindSpore 2.10 returns [4, 16] (a generator cannot leave its graph); sum/any take it as well
    @ms.jit
    def squares_of_evens(x):
        evens = (i * i for i in range(1, 5) if i % 2 == 0)
        return evens, sum(i for i in (1, 2, 3)), x * any(i > 2 for i in (1, 3))

    evens, total, scaled = squares_of_evens(ms.tensor([1.0, 2.0]))
    assert evens == [4, 16] and type(evens) is list
    assert total == 6
    np.testing.assert_allclose(scaled.asnumpy(), [1.0, 2.0])

    @ms.jit
    def doubled(x):  # no call, no branch: converted for its generator expression alone
        return (i * 2 for i in (1, 2, 3)), x

    assert doubled(ms.tensor([1.0]))[0] == [2, 4, 6]


def test_dict_has_key_in_compiled_code():
    # MindSpore 2.10's graph: x.has_key("a") -> True, x.has_key("z") -> False (Python dicts have no has_key)
    table = {"a": ms.tensor([1, 2, 3]), "b": ms.tensor([4, 5, 6])}

    @ms.jit
    def lookup():
        return table.has_key("a"), table.has_key("z"), table.get("b")

    present, absent, value = lookup()
    assert present is True and absent is False
    np.testing.assert_array_equal(value.asnumpy(), [4, 5, 6])


def test_range_over_a_one_element_tensor_counts_its_element():
    # MindSpore 2.10 (capture_mode="bytecode", and PyNative's range(Tensor([3]))): 3 iterations
    @ms.jit
    def count(x):
        total = 0
        for _ in range(x * 3):
            total = total + 1
        return total

    assert int(count(ms.tensor([1], ms.int32))) == 3


def test_range_over_a_longer_tensor_names_the_shape():
    @ms.jit
    def count(x):
        total = 0
        for _ in range(x):
            total = total + 1
        return total

    with pytest.raises(TypeError, match=r"range\(\) takes integers or one-element tensors.*shape \(2,\)"):
        count(ms.tensor([1, 2]))


def test_dict_views_in_compiled_code_are_snapshots():
    # MindSpore 2.10's graph: keys() and values() are tuples, items() a list of pairs, taken when called
    table = {"a": ms.tensor([1, 2, 3]), "b": ms.tensor([4, 5, 6])}

    @ms.jit
    def views(t):
        keys, values, items = table.keys(), table.values(), table.items()
        updated = dict(table)
        updated.update({"a": t * 2})
        return keys, values, items, updated

    keys, values, items, updated = views(ms.tensor([7, 8, 9]))
    assert keys == ("a", "b") and type(values) is tuple and type(items) is list
    np.testing.assert_array_equal(values[0].asnumpy(), [1, 2, 3])
    assert [name for name, _ in items] == ["a", "b"]
    np.testing.assert_array_equal(items[1][1].asnumpy(), [4, 5, 6])
    np.testing.assert_array_equal(updated["a"].asnumpy(), [14, 16, 18])


@ms.jit
def over_arrays():
    values = np.array([1, 2, 3])
    return map(lambda v: v + 1, values), zip(values, values), map(add, [1, 2], [3, 4])


def test_map_and_zip_over_a_numpy_array_return_pythons_iterators():
    # MindSpore 2.10 runs them in Python over an ndarray: <class 'map'>, <class 'zip'>; over a list still a list
    mapped, zipped, listed = over_arrays()
    assert isinstance(mapped, map) and [int(v) for v in mapped] == [2, 3, 4]
    assert isinstance(zipped, zip) and [(int(a), int(b)) for a, b in zipped] == [(1, 1), (2, 2), (3, 3)]
    assert listed == [4, 6]


class EnumerateFrom(ms.nn.Cell):
    def __init__(self, start):
        super().__init__()
        self.start = start

    def construct(self, x):
        total = x
        for index, value in enumerate((x, x), start=self.start):
            total = total + index * value
        return total


def test_enumerate_start_must_be_an_int():
    # MindSpore 2.10 (GRAPH_MODE): start 2 gives x + 2x + 3x; start [1, 2, 3] raises this TypeError, quotes included
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert float(EnumerateFrom(2)(ms.Tensor(1.0)).asnumpy()) == 6.0
        message = "'For 'enumerate', the 'start' should be a const int number, but got [1, 2, 3].'"
        with pytest.raises(TypeError) as error:
            EnumerateFrom([1, 2, 3])(ms.Tensor(1.0))
        assert message in str(error.value)
        with pytest.raises(TypeError, match="should be a const int number, but got 1.5"):
            ms.jit(lambda: enumerate((1, 2), 1.5))()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_len_of_a_number_in_compiled_code_is_an_attribute_error():
    # MindSpore 2.10 (ms.jit): AttributeError "'Int' object has no attribute '__len__'" for len(5) and
    # len(mutable(2)); len of a tuple as Python's
    @ms.jit
    def length(value):
        return len(value)

    with pytest.raises(AttributeError, match="'Int' object has no attribute '__len__'"):
        length(5)
    with pytest.raises(AttributeError, match="'Int' object has no attribute '__len__'"):
        ms.jit(lambda: len(ms.mutable(2)))()
    assert length((1, 2, 3)) == 3


class _Queue(ms.nn.Cell):
    """The kind of MindSpore's test_deque_list_cycle: a deque drained by a `while` into a list."""

    def construct(self, inputs):
        inputs = ms.Tensor(inputs.asnumpy())
        queue = deque([inputs])
        outputs = []
        while queue:
            x = queue.popleft()
            if isinstance(x, list):
                queue.extend(x)
            elif isinstance(x, ms.Tensor):
                outputs.append(x)
        return outputs


class _ReturnsDeque(ms.nn.Cell):
    def construct(self, inputs):
        return deque([inputs, inputs + 1], maxlen=3)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_a_returned_deque_holds_the_computed_tensors(mode):
    previous = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        queue = _ReturnsDeque()(ms.Tensor([2, 3]))
    finally:
        ms.set_context(mode=previous)
    assert type(queue) is deque and queue.maxlen == 3
    assert [item.asnumpy().tolist() for item in queue] == [[2, 3], [3, 4]]


def test_a_list_filled_from_a_deque_in_a_while_loop_stays_a_list():
    # A difference kept on purpose: MindSpore 2.10's graph (GRAPH_MODE and ms.jit) returns this one-Tensor list as
    # the Tensor [2, 3, 4] (its interpreted `while` over a deque leaves `outputs` a value of unknown type; `len` of
    # it is then Tensor(1), indexing it fails, two items raise a TypeError); its PyNative mode, and sporax in both
    # modes, return the list.
    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # asnumpy() runs the construct eagerly
            outputs = _Queue()(ms.Tensor([2, 3, 4]))
    finally:
        ms.set_context(mode=previous)
    assert type(outputs) is list and len(outputs) == 1
    assert outputs[0].asnumpy().tolist() == [2, 3, 4]
