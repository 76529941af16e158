"""ms.jit on functions and methods: compile cache, state write-back, RNG, mutable, fallback, print."""
import collections
import warnings

import jax
import numpy as np
import pytest

from sporax.core import random_state
from sporax.core.parameter import Parameter
from sporax.graph import constexpr, jit, mutable
from sporax.nn.cell import Cell
from sporax.state import EagerFallbackWarning
from tests.state.helpers import add, assign, mul, tensor, wrap


# a deque, not a list: MindSpore's graph (and so sporax, graph.helper_changes) drops a helper's append to a
# module-level list, while the trace counter must see every trace
_TRACES = collections.deque()


def _note_trace():
    _TRACES.append(1)


def test_jit_function_values_and_cache():
    traces = _TRACES
    traces.clear()

    @jit
    def scaled(x, factor):
        _note_trace()
        return mul(x, wrap(np.float32(factor)))

    np.testing.assert_allclose(scaled(tensor([1.0, 2.0]), 3).asnumpy(), [3.0, 6.0])
    count = len(traces)
    np.testing.assert_allclose(scaled(tensor([5.0, 6.0]), 3).asnumpy(), [15.0, 18.0])
    assert len(traces) == count, "same shapes and static values: no new trace"
    np.testing.assert_allclose(scaled(tensor([1.0, 2.0]), 4).asnumpy(), [4.0, 8.0])
    assert len(traces) > count, "a new Python scalar is a new static signature"


def test_mutable_scalar_does_not_recompile():
    traces = []

    @jit
    def scaled(x, factor):
        traces.append(1)
        return mul(x, factor)

    np.testing.assert_allclose(scaled(tensor([1.0, 2.0]), mutable(2.0)).asnumpy(), [2.0, 4.0])
    count = len(traces)
    np.testing.assert_allclose(scaled(tensor([1.0, 2.0]), mutable(5.0)).asnumpy(), [5.0, 10.0])
    assert len(traces) == count
    assert mutable((1, 2)) == (1, 2)
    with pytest.raises(TypeError, match="mutable"):
        mutable("text")


def test_mutable_bool_is_a_traced_bool_as_mindspores():
    # MindSpore 2.10's mutable(True) is a `_Bool`: an int that passes isinstance(bool) and prints as True.
    flag = mutable(True)
    assert isinstance(flag, bool) and isinstance(flag, int) and flag.__class__ is bool and type(flag) is not bool
    assert (repr(flag), str(flag), f"{flag}", repr(mutable(False))) == ("True", "True", "True", "False")
    assert flag == 1 and hash(flag) == hash(True) and flag + 1 == 2 and (flag & True) is True and [1, 2][flag] == 2
    _TRACES.clear()

    @jit
    def choose(x, condition):
        _note_trace()
        y = x
        if condition:
            y = x + 1
        return y, condition, condition + 1, not condition, x * condition

    for value, expected in ((True, (2.0, True, 2, False, 1.0)), (False, (1.0, False, 1, True, 0.0))):
        y, same, plus, negated, scaled = choose(tensor([1.0, 1.0]), mutable(value))
        np.testing.assert_allclose(y.asnumpy(), [expected[0]] * 2)
        assert (same, plus, negated) == expected[1:4] and type(negated) is bool and type(plus) is int
        np.testing.assert_allclose(scaled.asnumpy(), [expected[4]] * 2)
    assert len(_TRACES) == 1, "mutable(True) and mutable(False) share one program"


def test_mutable_dynamic_len_takes_sequences_only():
    for value, name in ((True, "bool"), (1, "int"), (1.5, "float"), (tensor([1.0]), "Tensor"), ({"a": 1}, "dict")):
        with pytest.raises(TypeError, match=f"when the variable_len is True, the first input should be list or "
                                            f"tuple, but got: {name}$"):
            mutable(value, dynamic_len=True)
    assert mutable([1, 2], dynamic_len=True) == [1, 2]


def test_mutable_of_a_numpy_scalar_is_the_python_number_only_in_a_compiled_function():
    # MindSpore 2.10 (tests/st/compiler/control/test_jax_control_ops.py::test_scan iterates an ndarray argument):
    # inside ms.jit mutable(a[1]) of np.array([1, 2, 3]) gives (y + 1, y * 2) == (3, 4) as ints, of [1.5, 2.5]
    # (3.5, 5.0) as floats, of [True, False] (1, 0); a NumPy scalar argument g(np.int64(3)) -> 4.
    # Eager mutable(np.int64(1)) is MindSpore's TypeError.
    @jit
    def pick(array, i):
        y = mutable(array[i])
        return y + 1, y * 2

    def _number(value):  # sporax returns 0-d Tensors where MindSpore returns Python numbers (same values)
        return float(value.asnumpy()) if hasattr(value, "asnumpy") else value

    for array, expected, kind in ((np.array([1, 2, 3]), (3, 4), int), (np.array([1.5, 2.5]), (3.5, 5.0), float),
                                  (np.array([True, False]), (1, 0), int)):
        assert [_number(value) for value in pick(array, 1)] == list(expected), kind

    @jit
    def plus_one(value):
        return mutable(value) + 1

    assert _number(plus_one(np.int64(3))) == 4 and _number(plus_one(np.float32(1.5))) == 2.5

    @jit
    def each_plus_one(array):  # the list append makes sporax run it eagerly: still a compiled function's rules
        out = []
        for item in array:
            out.append(mutable(item) + 1)
        return out

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EagerFallbackWarning)
        assert [_number(value) for value in each_plus_one(np.array([1, 2, 3]))] == [2, 3, 4]
    for value in (np.int64(1), np.float32(1.5)):
        with pytest.raises(TypeError, match="For 'mutable', the 'input_data' should be one of"):
            mutable(value)


def test_mutable_values_have_mindspores_class_names():
    # MindSpore 2.10: type(mutable(v)).__name__ is _Tuple, _Tuple, _List, _Dict, _Int, _Float, _Bool
    values = (mutable((1, 2)), mutable((1, 2), dynamic_len=True), mutable([tensor([1]), 2], dynamic_len=True),
              mutable({"a": 1}), mutable(3), mutable(2.5), mutable(True))
    assert [type(value).__name__ for value in values] == ["_Tuple", "_Tuple", "_List", "_Dict", "_Int", "_Float",
                                                          "_Bool"]


def test_parameter_written_in_jit_is_written_back_and_old_buffer_donated():
    counter = Parameter(tensor([0.0, 0.0]), name="counter")
    weight = Parameter(tensor([2.0, 2.0]), name="weight")

    @jit
    def step(x):
        assign(counter, add(counter, x))
        return mul(x, weight)

    out = step(tensor([1.0, 2.0]))
    np.testing.assert_allclose(out.asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(counter.asnumpy(), [1.0, 2.0])
    (program,) = step.cache.programs
    assert [s.name for s in program.written] == ["counter"], "only written state is returned"
    kept = weight._array
    step(tensor([1.0, 2.0]))
    assert not kept.is_deleted(), "a Parameter only read is not donated"
    np.testing.assert_allclose(counter.asnumpy(), [2.0, 4.0])
    weight.set_data(tensor([3.0, 3.0]))
    np.testing.assert_allclose(step(tensor([1.0, 1.0])).asnumpy(), [3.0, 3.0], err_msg="weights are inputs, not baked")


def test_shared_buffer_is_not_donated():
    counter = Parameter(tensor([0.0]), name="counter")

    @jit
    def bump():
        assign(counter, add(counter, tensor([1.0])))
        return counter

    snapshot = wrap(counter._array)  # another Tensor shares the array: donating it would break this one
    bump()
    np.testing.assert_allclose(snapshot.asnumpy(), [0.0])
    np.testing.assert_allclose(counter.asnumpy(), [1.0])


def test_returned_parameter_is_its_new_value():
    state = Parameter(tensor([1.0]), name="state")

    @jit
    def bump():
        assign(state, add(state, tensor([1.0])))
        return state

    result = bump()
    assert type(result).__name__ == "Tensor"
    np.testing.assert_allclose(result.asnumpy(), [2.0])


def test_rng_state_advances_under_jit_and_set_seed_resets_it():
    @jit
    def noise(x):
        return add(x, wrap(jax.random.uniform(random_state.next_key(), (3,), dtype=np.float32)))

    random_state.set_seed(7)
    first = noise(tensor(np.zeros(3))).asnumpy()
    second = noise(tensor(np.zeros(3))).asnumpy()
    assert not np.allclose(first, second)
    random_state.set_seed(7)
    np.testing.assert_allclose(noise(tensor(np.zeros(3))).asnumpy(), first)


def test_host_read_falls_back_with_one_warning():
    @jit
    def relu_or_identity(x):
        if x.asnumpy().sum() > 0:
            return mul(x, tensor(2.0))
        return x

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.testing.assert_allclose(relu_or_identity(tensor([1.0, 2.0])).asnumpy(), [2.0, 4.0])
        np.testing.assert_allclose(relu_or_identity(tensor([-1.0, -2.0])).asnumpy(), [-1.0, -2.0])
    messages = [str(w.message) for w in caught if issubclass(w.category, EagerFallbackWarning)]
    assert len(messages) == 1 and "relu_or_identity" in messages[0]
    assert "line" in messages[0] and "x.asnumpy().sum() > 0" in messages[0]


def test_fullgraph_raises_instead_of_falling_back():
    @jit(fullgraph=True)
    def branchy(x):
        if x.asnumpy().sum() > 0:
            return x
        return mul(x, x)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EagerFallbackWarning)
        with pytest.raises(RuntimeError, match="fullgraph"):
            branchy(tensor([1.0]))


def test_print_inside_jit_prints_runtime_values(capfd):
    @jit
    def show(x):
        y = mul(x, tensor(2.0))
        print("value:", y)
        return y

    show(tensor([1.0, 2.0]))
    show(tensor([3.0, 4.0]))
    jax.effects_barrier()
    printed = capfd.readouterr().out
    assert printed.count("value:") == 2
    assert "6" in printed and "8" in printed


def test_jit_method_of_a_cell_and_nested_jit():
    class Scale(Cell):
        def __init__(self):
            super().__init__()
            self.factor = Parameter(tensor([2.0]), name="factor")

        @jit
        def construct(self, x):
            return inner(mul(x, self.factor))

    @jit
    def inner(x):
        return add(x, tensor(1.0))

    cell = Scale()
    np.testing.assert_allclose(cell(tensor([1.0, 2.0])).asnumpy(), [3.0, 5.0])
    cell.factor.set_data(tensor([3.0]))
    np.testing.assert_allclose(cell(tensor([1.0, 2.0])).asnumpy(), [4.0, 7.0])


def test_jit_of_a_cell_object():
    class Twice(Cell):
        def construct(self, x):
            return add(x, x)

    compiled = jit(Twice())
    np.testing.assert_allclose(compiled(tensor([1.0, 2.0])).asnumpy(), [2.0, 4.0])


def test_constexpr_runs_at_trace_time():
    @constexpr
    def double_shape(shape):
        return tuple(2 * d for d in shape)

    @jit
    def tiled(x):
        return wrap(x._value.reshape(1, -1) * np.ones(double_shape(x.shape), np.float32)[:1])

    assert double_shape((2, 3)) == (4, 6)
    assert tiled(tensor([1.0, 2.0])).shape == (1, 2)


def test_jit_rejects_bad_capture_mode_and_jit_level():
    # MindSpore 2.10's messages (docs page jit_compilation; its jit takes 'O0' and 'O1' only)
    with pytest.raises(ValueError) as raised:
        jit(lambda x: x, capture_mode="foo")
    assert str(raised.value) == ("For 'jit', the 'capture_mode' must be str and must be in "
                                 "'['ast', 'bytecode', 'trace']', but got 'foo'.")
    with pytest.raises(ValueError) as raised:
        jit(lambda x: x, jit_level="O3")
    assert str(raised.value) == "For 'jit', the 'jit_level' must be str and must be in '['O0', 'O1']', but got 'O3'."
    assert jit(lambda x: x, capture_mode="bytecode", jit_level="O1")(3) == 3


def test_trace_capture_mode_runs_differs_from_mindspore_cpu():
    """Docs (jit_compilation): ``@jit(capture_mode="trace")`` compiles by tracing. MindSpore 2.10's CPU build
    fails when the function is called: TypeError "'NoneType' object is not subscriptable" (decorated or not).
    sporax traces every capture mode the same way."""
    traced = jit(lambda a, b, c: add(mul(a, b), c), capture_mode="trace", jit_level="O0")
    np.testing.assert_allclose(traced(tensor([2.0]), tensor([3.0]), tensor([1.0])).asnumpy(), [7.0])


def test_an_append_nothing_reads_is_dropped():
    """MindSpore 2.10 drops a list change that the compiled function neither reads nor returns: calls stays []
    (a read or returned list changes at every call: test_outside_objects)."""
    calls = []

    @jit
    def count(x):
        calls.append(1)
        return x

    for _ in range(4):
        count(tensor([1.0]))
    assert calls == []


def test_parameter_arguments_are_updated_in_place():
    weights = [Parameter(tensor([1.0, 2.0]), name="a"), Parameter(tensor([3.0]), name="b")]

    @jit
    def sgd(params, grads, learning_rate):
        for param, gradient in zip(params, grads):
            assign(param, add(param, mul(gradient, wrap(np.float32(-learning_rate)))))
        return params[0]

    sgd(weights, (tensor([1.0, 1.0]), tensor([2.0])), 0.5)
    sgd(weights, (tensor([1.0, 1.0]), tensor([2.0])), 0.5)
    np.testing.assert_allclose(weights[0].asnumpy(), [0.0, 1.0])
    np.testing.assert_allclose(weights[1].asnumpy(), [1.0])


def test_static_python_outputs_stay_python_values():
    @jit
    def with_metadata(x):
        return x, 3, "label", None

    out, number, text, nothing = with_metadata(tensor([1.0]))
    assert number == 3 and isinstance(number, int) and text == "label" and nothing is None
    np.testing.assert_allclose(out.asnumpy(), [1.0])


def test_keyword_arguments():
    @jit
    def affine(x, scale=None, shift=0.0):
        return add(mul(x, scale), wrap(np.float32(shift)))

    np.testing.assert_allclose(affine(tensor([1.0]), scale=tensor([2.0]), shift=1.0).asnumpy(), [3.0])


def test_cell_created_inside_jit_uses_its_parameters_as_constants():
    """The static-graph tutorial builds the network inside the jitted function."""
    from sporax import nn

    @jit
    def run(x):
        layer = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        return layer(x)

    np.testing.assert_allclose(run(tensor(np.ones((4, 3), np.float32))).asnumpy(), np.full((4, 2), 3.0))


def test_returned_string_formatted_from_a_computed_tensor_holds_its_values():
    # MindSpore 2.10 formats f"x: {x}" when the graph runs: the returned string shows the values
    @jit
    def describe(x):
        doubled = mul(x, tensor([2.0, 2.0]))
        return doubled, f"doubled: {doubled}"

    with pytest.warns(EagerFallbackWarning, match="string formatted from a Tensor"):
        values, text = describe(tensor([1.0, 3.0]))
    assert text == "doubled: [2. 6.]"
    np.testing.assert_allclose(values.asnumpy(), [2.0, 6.0])


def test_numpy_scalars_a_jit_returns_are_python_numbers():
    # MindSpore 2.10: (1, 2.5, (1, 2, 3), [4]) as int/float/tuple of ints/list; a NumPy array stays one
    @jit
    def constants(x):
        values = np.array([1, 2, 3])
        return values[0], np.float32(2.5), tuple(values), [np.int32(4)], x + 1

    first, half, items, listed, shifted = constants(tensor([1.0]))
    assert (first, half, items, listed) == (1, 2.5, (1, 2, 3), [4])
    assert type(first) is int and type(half) is float and all(type(item) is int for item in items + tuple(listed))
    np.testing.assert_allclose(shifted.asnumpy(), [2.0])


def test_numpy_array_a_jit_returns_stays_a_numpy_array():
    # MindSpore 2.10 (JIT Fallback docs example): np.add of two constant arrays comes back as numpy.ndarray
    @jit
    def added(x):
        return np.add(np.array([1, 2, 3, 4, 5]), np.array([1, 2, 3, 4, 5])), x + 1

    values, shifted = added(tensor([1.0]))
    assert type(values) is np.ndarray and values.tolist() == [2, 4, 6, 8, 10]
    np.testing.assert_allclose(shifted.asnumpy(), [2.0])


def test_print_with_a_numpy_argument_prints_one_python_line(capfd):
    # MindSpore 2.10 runs such a print in Python (JIT Fallback), Tensors as str() writes them, on one line:
    # 'np_sum:  [ 2  4  6  8 10] tensor_sum:  [ 2  4  6  8 10]'; without a NumPy argument, one line per value
    @jit
    def show(x, y):
        tensor_sum = x + y
        np_sum = np.array([1, 2, 3, 4, 5]) + np.array([1, 2, 3, 4, 5])
        print("np_sum: ", np_sum, "tensor_sum: ", tensor_sum)
        print("np_sum: ", np_sum)
        return tensor_sum

    values = tensor([1, 2, 3, 4, 5], np.int64)
    show(values, values)
    jax.effects_barrier()
    printed = capfd.readouterr().out
    assert printed == "np_sum:  [ 2  4  6  8 10] tensor_sum:  [ 2  4  6  8 10]\nnp_sum:  [ 2  4  6  8 10]\n"


def test_jit_class_refuses_a_cell_subclass():
    from sporax.graph import jit_class

    class Net(Cell):
        def construct(self, x):
            return x

    class Sub(Net):
        pass

    for cls in (Net, Sub):
        with pytest.raises(TypeError, match="jit_class is used for user-defined classes and cannot be used for "
                                            "nn.Cell: <class '.*'>.*Remove @jit_class"):
            jit_class(cls)

    @jit_class
    class Plain:
        value = 3

    assert Plain.value == 3


def test_calling_a_jit_class_instance_without_call_in_compiled_code():
    # MindSpore 2.10: ValueError "MsClassObject: 'Counter' has no __call__ function, please check the code."
    # inside the graph; Python's TypeError outside it
    from sporax.graph import jit_class

    @jit_class
    class Counter:
        def __init__(self, start):
            self.start = start

    counter = Counter(2)
    assert Counter.__ms_class__ is True

    @jit
    def call(x):
        return counter(x)

    with pytest.raises(ValueError, match="MsClassObject: 'Counter' has no __call__ function, please check the code"):
        call(tensor([1.0]))
    with pytest.raises(TypeError, match="'Counter' object is not callable"):
        counter(1)
