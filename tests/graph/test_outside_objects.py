"""Outside objects in compiled code (sporax.graph.outside_objects): a jitted function that reverses a
module-level list in place and returns it (MindSpore's static-graph syntax page): MindSpore 2.10 returns
that very list object, reversed, and keeps a copy of nothing; list methods and attribute updates run at
every call."""
import numpy as np
import pytest
import sporax as ms
from sporax import Parameter, Tensor, nn

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
    assert float(first_after_reverse(Tensor(1.0))) == 2.0  # reversed again by the second call
    assert [float(item) for item in tensors] == [1.0, 2.0]


pairs = [[1, 2], [3, 4]]


@ms.jit
def reverse_first_item():
    first = pairs[0]
    first.reverse()
    return first


def test_an_item_of_a_module_list_reversed_is_returned_itself():
    # MindSpore 2.10: the item itself, reversed at every call ([2, 1], then [1, 2]), the module list holding it
    output = reverse_first_item()
    assert output == [2, 1] and output is pairs[0] and pairs == [[2, 1], [3, 4]]
    output = reverse_first_item()
    assert output == [1, 2] and output is pairs[0]


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


nested = [1, 2, [3, 4], None]
in_tuple = ([1, 2, 3], 4)


def test_an_item_of_a_module_level_list_is_returned_itself():
    # MindSpore 2.10: id(foo()) == id(nested[2]), also as an item of a returned tuple
    @ms.jit
    def item():
        return nested, nested[2]

    whole, inner = item()
    assert whole is nested and inner is nested[2]


def test_a_list_inside_a_tuple_argument_is_reversed_in_place_and_returned_itself():
    # MindSpore 2.10: x == ([4, 3, 2, 1], 2, 3) afterwards and the output is x[0]
    @ms.jit
    def reverse_first(x):
        y = x[0]
        y.reverse()
        return y

    x = ([1, 2, 3, 4], 2, 3)
    output = reverse_first(x)
    assert output is x[0] and x == ([4, 3, 2, 1], 2, 3)


def test_a_list_attribute_of_a_cell_is_returned_itself_and_a_local_list_is_not_kept():
    class Popper(nn.Cell):
        def __init__(self, items):
            super().__init__()
            self.items = items

        def construct(self):
            last = self.items.pop()
            return self.items, last, [1, 2]

    items = [1, 2, Tensor([3]), "x", (3, 4, 5)]
    popper = Popper(items)
    returned, last, local = popper()
    # MindSpore 2.10: the attribute list itself, popped: [1, 2, Tensor([3]), 'x'] and (3, 4, 5)
    assert returned is items and len(items) == 4 and last == (3, 4, 5) and local == [1, 2]
    # ... and popped again by the next call: [1, 2, Tensor([3])] and 'x'
    returned, last, _ = popper()
    assert returned is items and len(items) == 3 and last == "x"


def test_a_module_level_list_is_reversed_at_every_call():
    # MindSpore 2.10: [4, 3, 2, 1], then [1, 2, 3, 4] -- the reverse runs in every call
    values = [1, 2, 3, 4]

    @ms.jit
    def reverse():
        values.reverse()
        return values

    assert reverse() == [4, 3, 2, 1] and reverse() == [1, 2, 3, 4] and values == [1, 2, 3, 4]


class _Counter(nn.Cell):
    def __init__(self, start):
        super().__init__()
        self.a = start

    def construct(self):
        self.a = self.a + 1
        return self.a


def test_an_attribute_update_that_reads_the_attribute_runs_at_every_call():
    # MindSpore 2.10 (GRAPH_MODE): 2, 3, 4 for an int; [2 3 4], [3 4 5] for a Tensor and for a NumPy array
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        counter = _Counter(1)
        assert [counter(), counter(), counter()] == [2, 3, 4] and counter.a == 4
        for start in (Tensor([1, 2, 3]), np.array([1, 2, 3])):
            counter = _Counter(start)
            first, second = counter(), counter()
            assert np.asarray(first).tolist() == [2, 3, 4] and np.asarray(second).tolist() == [3, 4, 5]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_a_global_object_attribute_is_incremented_at_every_call():
    # MindSpore 2.10: foo() returns 1 then 2, and obj.x is 2 then 3
    class Holder:
        def __init__(self):
            self.x = 1

    holder = Holder()

    @ms.jit
    def bump():
        before = holder.x
        holder.x = holder.x + 1
        return before

    assert bump() == 1 and holder.x == 2
    assert bump() == 2 and holder.x == 3


def test_renaming_a_parameter_in_graph_mode_raises_and_strict_syntax_refuses_attribute_writes(monkeypatch):
    class Rename(nn.Cell):
        def __init__(self):
            super().__init__()
            self.x = Parameter(Tensor(np.array([1, 2, 3])), name="x")

        def construct(self):
            self.x.name = "x2"
            return self.x

    class Store(nn.Cell):
        def construct(self):
            self.data = 2
            return self.data

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        # MindSpore 2.10: ValueError 'Do not support to set attribute for a parameter ...'
        with pytest.raises(ValueError, match="Do not support to set attribute for a parameter"):
            Rename()()
        # MindSpore 2.10 with MS_DEV_JIT_SYNTAX_LEVEL=0 (a new attribute): AttributeError "The 'Store' object has
        # no attribute 'data'."; 2 in the default (lax) syntax
        monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
        with pytest.raises(AttributeError, match="^The 'Store' object has no attribute 'data'"):
            Store()()
        monkeypatch.delenv("MS_DEV_JIT_SYNTAX_LEVEL")
        assert Store()() == 2
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


settings = {"a": 1, "b": [1, 2]}


def test_dicts_keep_identity_and_a_dict_argument_changes():
    # MindSpore 2.10: the module-level dict and its list item come back as themselves; a setitem on a dict
    # argument changes the caller's dict
    @ms.jit
    def read():
        return settings, settings["b"]

    whole, item = read()
    assert whole is settings and item is settings["b"]

    @ms.jit
    def write(values):
        values["a"] = 3
        return values

    values = {"a": 1, "b": 2}
    assert write(values) is values and values == {"a": 3, "b": 2}


def test_eager_rerun_warns_once_naming_the_cell():
    """A construct that updates its own Python counter runs eagerly at every call, and says so once."""
    import warnings

    import numpy as np

    import sporax as ms
    from sporax import Tensor, nn
    from sporax.state.fallback import EagerFallbackWarning

    class Counting(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = 0

        def construct(self, x):
            self.count = self.count + 1
            return x * 2

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Counting()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(3):
                net(Tensor(np.ones(2, np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    messages = [str(w.message) for w in caught if issubclass(w.category, EagerFallbackWarning)]
    assert net.count == 3
    assert len(messages) == 1 and messages[0].startswith("Counting.construct: it changes a list")


def test_a_returned_list_of_floats_stays_the_callers_list():
    # the float rule of returned outputs (state.python_floats.returned_floats) rebuilds nothing it does not change
    values = [0.5, 2.2]

    @ms.jit
    def same():
        return values

    assert same() is values


def test_container_changes_disassembles_each_code_once(monkeypatch):
    """Every Cell call inside a trace asks for its construct's changes: the bytecode is read once per code."""
    import dis

    from sporax.graph import outside_objects

    def construct(self, x):
        self.items.append(x)
        log = {}

        def inner():
            log["last"] = x
        inner()
        return x

    first = outside_objects.container_changes(construct.__code__)
    assert dict(first) == {"items": {"append"}, "log": {"__setitem__"}}
    monkeypatch.setattr(dis, "get_instructions", lambda code: pytest.fail("disassembled again"))
    assert outside_objects.container_changes(construct.__code__) is first
    with pytest.raises(TypeError):
        first["items"] = {"pop"}  # shared by every caller: read-only
    with pytest.raises(AttributeError):
        first["items"].add("pop")
