"""Tensor __getitem__ / __setitem__ against NumPy, eagerly and under jax.jit."""
import jax
import numpy as np
import pytest

import sporax
import sporax.ops  # noqa: F401
from sporax.core import Parameter, Tensor, dtype as ms

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
MASK = X[..., 0] > 5  # shape (2, 3)

# (description, index for NumPy, index for the Tensor)
GET = [
    ("int", 1, 1), ("negative int", -1, -1), ("tuple of ints", (1, 2), (1, 2)), ("three ints", (1, 2, 3), (1, 2, 3)),
    ("slice", slice(0, 1), slice(0, 1)), ("step slice", (slice(None), slice(None, None, 2)), (slice(None), slice(None, None, 2))),
    ("negative step", (Ellipsis, slice(None, None, -1)), (Ellipsis, slice(None, None, -1))),
    ("ellipsis", (Ellipsis, 1), (Ellipsis, 1)), ("none", (None, 0), (None, 0)), ("none middle", (0, None, 1), (0, None, 1)),
    ("int list", [1, 0, 1], [1, 0, 1]), ("int tensor", np.array([1, 0]), Tensor(np.array([1, 0]))),
    ("int tensor on axis 2", (Ellipsis, np.array([3, 0])), (Ellipsis, Tensor(np.array([3, 0])))),
    ("2-d int index", np.array([[0, 1], [1, 0]]), Tensor(np.array([[0, 1], [1, 0]]))),
    ("negative array index", (0, np.array([-1, 0])), (0, Tensor(np.array([-1, 0])))),
    ("bool tensor mask", MASK, Tensor(MASK)), ("bool numpy mask", MASK, MASK), ("bool list", [True, False], [True, False]),
    ("mask after slice", (slice(None), MASK[0]), (slice(None), Tensor(MASK[0]))),
    ("mixed advanced", (np.array([0, 1]), slice(1, 3), np.array([2, 3])), (Tensor(np.array([0, 1])), slice(1, 3), [2, 3])),
    ("tensor slice bounds", slice(0, 2), slice(Tensor(0), Tensor(2))), ("0-d tensor index", 1, Tensor(1)),
    ("empty slice", slice(1, 0), slice(1, 0)), ("slice step 2", slice(None, None, 2), slice(None, None, 2)),
    ("slice negative start", slice(-1, None), slice(-1, None)), ("slice past end", slice(0, 100), slice(0, 100)),
    ("negative step slice", slice(None, None, -1), slice(None, None, -1)),
]


@pytest.mark.parametrize("description, numpy_index, tensor_index", GET, ids=[g[0] for g in GET])
def test_getitem_matches_numpy(description, numpy_index, tensor_index):
    result = Tensor(X)[tensor_index]
    assert isinstance(result, Tensor) and result.dtype is ms.float32
    np.testing.assert_array_equal(result.asnumpy(), X[numpy_index])


SET = [
    ("int scalar", 0, 0, -1.0), ("slice broadcast row", (slice(None), 1), (slice(None), 1), np.arange(4, dtype=np.float32)),
    ("ellipsis", (Ellipsis, 2), (Ellipsis, 2), 7.0), ("bool mask scalar", MASK, Tensor(MASK), 0.0),
    ("bool mask values", MASK, MASK, np.arange(4, dtype=np.float32)), ("int tensor", np.array([1]), Tensor(np.array([1])), 3.0),
    ("negative", (-1, -1, -1), (-1, -1, -1), 100.0), ("none", (None, 0), (None, 0), 5.0),
    ("tensor value", (0, 0), (0, 0), Tensor(np.array([1, 2, 3, 4], np.int32))), ("list value", (1, 2), (1, 2), [9, 8, 7, 6]),
    # scalar booleans and None among other indices (MindSpore 2.10 gives NumPy's result for all four)
    ("false adds empty axis", (Ellipsis, 2, False, 1), (Ellipsis, 2, False, 1), -1.0),
    ("true and none", (0, True, 0, None, True), (0, True, 0, None, True), [-2.0] * 4),
    ("none true and advanced", (None, True, [1, 0], (False, True, True), [2]),
     (None, True, [1, 0], (False, True, True), [2]), [[2.0, 3.0]]),
    ("trailing true none", (Ellipsis, 0, None, 1, True, True, None), (Ellipsis, 0, None, 1, True, True, None),
     [[[-4.0]], [[-4.0]]]),
]


@pytest.mark.parametrize("description, numpy_index, tensor_index, value", SET, ids=[s[0] for s in SET])
def test_setitem_matches_numpy(description, numpy_index, tensor_index, value):
    expected = X.copy()
    expected[numpy_index] = value.asnumpy() if isinstance(value, Tensor) else value
    tensor = Tensor(X)
    holder = [tensor]
    tensor[tensor_index] = value
    assert tensor.dtype is ms.float32
    np.testing.assert_array_equal(holder[0].asnumpy(), expected)


def test_setitem_casts_to_the_tensor_dtype():
    ints = Tensor(np.zeros(3, np.int32))
    ints[1] = 2.7
    assert ints.dtype is ms.int32 and ints.asnumpy().tolist() == [0, 2, 0]
    flags = Tensor(np.zeros(2, np.bool_))
    flags[0] = 1
    assert flags.asnumpy().tolist() == [True, False]


def test_setitem_on_parameter_keeps_identity():
    p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")
    alias = p
    p[1:] = 1.0
    assert isinstance(p, Parameter) and alias.asnumpy().tolist() == [0.0, 1.0, 1.0]


@pytest.mark.parametrize("index, error", [(5, IndexError), ((0, 3), IndexError), ((0, 0, 0, 0), IndexError),
                                          (1.5, IndexError), (Tensor(np.array([0.5])), IndexError),
                                          (np.ones(3, bool), IndexError)])
def test_bad_indices(index, error):
    with pytest.raises(error, match="Tensor index"):
        Tensor(X)[index]


def test_a_lone_false_index_is_refused_as_mindspore():
    # MindSpore 2.10, PyNative and graph: x[True] adds an axis, reading x[False] raises (NumPy selects nothing)
    assert Tensor(X)[True].shape == (1,) + X.shape
    for index in (False, np.bool_(False)):
        with pytest.raises(IndexError, match="When tensor is indexed by a bool object, the value only support 'True'"):
            Tensor(X)[index]
        tensor = Tensor(X)
        tensor[index] = 0.0  # MindSpore: changes nothing
        assert tensor.asnumpy().tolist() == X.tolist()


def _graph_cell(function):
    class Indexing(sporax.nn.Cell):
        def construct(self, x):
            return function(x)
    return Indexing()


def _write(index):
    def write(x):
        x[index] = 1.0
        return x
    return write


# graph mode parses a lambda only when it stands alone on its line, as MindSpore's: named readers
def _read_5(x):
    return x[5]


def _read_last_9(x):
    return x[..., 9]


def _read_empty(x):
    return x[[]]


def _read_empty_member(x):
    return x[0, []]


def _read_float(x):
    return x[1.0]


# MindSpore 2.10's first lines, recorded on CPU: PyNative's words, then its graph compiler's
INDEX_ERRORS = [
    (_read_5, "index 5 is out of bounds for dimension with size 2",
     "For 'StridedSlice', the 'strides[0]' cannot be negative number and 'begin[0]' must be in [-2, 2) when "
     "'shrink_axis_mask' is greater than 0, but got 'strides[0]': 1, 'begin[0]': 5."),
    (_read_last_9, "index 9 is out of bounds for dimension with size 4",
     "For 'StridedSlice', the 'strides[2]' cannot be negative number and 'begin[2]' must be in [-4, 4) when "
     "'shrink_axis_mask' is greater than 0, but got 'strides[2]': 1, 'begin[2]': 9."),
    (_write(5), "Index 5 is out of bounds for axis 0 with size 2", "'index 5 is out of bounds for axis 0 with size 2'"),
    (_write((0, 7)), "index 7 is out of bounds for dimension with size 3",
     "Index 7 is out of bounds for dimension with size 3"),
    (_read_empty, "When tensor is indexed by list, the list can't be empty.",
     "'dimension is 2 but corresponding boolean dimension is 0'"),
    (_read_empty_member, "IndexError: The sequence element(tuple/list) in tuple index can't be empty.",
     "The sequence element(tuple/list) in tuple index can't be empty."),
    (_read_float, "Only support integers, slices(`:`), ellipsis(`...`), None, bool, tensor, int, list and "
                  "tuple as index, but got 1.0 with type <class 'float'>",
     "Number index of tensor must be int or bool, but got 1.0."),
]


@pytest.mark.parametrize("mode", ["PYNATIVE", "GRAPH"])
@pytest.mark.parametrize("case", range(len(INDEX_ERRORS)))
def test_index_errors_in_each_modes_words(case, mode):
    # sporax gave the graph compiler's words in both modes, and an empty list selected nothing
    function, pynative, graph = INDEX_ERRORS[case]
    sporax.set_context(mode=getattr(sporax, f"{mode}_MODE"))
    try:
        with pytest.raises(IndexError) as caught:
            _graph_cell(function)(Tensor(np.zeros((2, 3, 4), np.float32)))
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    assert str(caught.value).split("\n")[0] == (pynative if mode == "PYNATIVE" else graph)


def test_bad_value_shape_in_pynative_is_mindspores_broadcast_error():
    # MindSpore 2.10 PyNative's first line (recorded)
    tensor = Tensor(np.zeros((2, 3, 4), np.float32))
    with pytest.raises(ValueError) as caught:
        tensor[0] = Tensor(np.ones((2, 2), np.float32))
    assert str(caught.value).split("\n")[0] == (
        "For 'BroadcastTo', in order to broadcast, each dimension pair must be equal or input dimension is 1 or target "
        "dimension is -1. But got x_shape: (2, 2), target shape: (3, 4).")


def test_bad_value_shape():
    tensor = Tensor(X)
    with pytest.raises(ValueError, match="cannot be broadcast"):
        tensor[0] = np.ones(5, np.float32)


def test_under_jit_static_and_traced_integer_indices():
    @jax.jit
    def function(array, index):
        tensor = Tensor._wrap(array)
        picked = tensor[Tensor._wrap(index)]
        tensor[0, 1:3] = 0.0
        tensor[Tensor._wrap(index), -1] = picked[:, 0]
        return picked._value, tensor[..., None, 1]._value, tensor._value

    index = np.array([1, 0])
    picked, expanded, updated = function(X, index)
    np.testing.assert_array_equal(picked, X[index])
    expected = X.copy()
    expected[0, 1:3] = 0.0
    expected[index, -1] = X[index][:, 0]
    np.testing.assert_array_equal(updated, expected)
    np.testing.assert_array_equal(expanded, expected[..., None, 1])


def test_slice_bound_made_from_a_python_number_inside_compiled_code():
    # MindSpore 2.10 GRAPH_MODE folds ``Tensor(5 // 2)`` made in a construct to a constant, so it may bound a
    # slice: arange(9)[0:-1:step] is [0, 2, 4, 6] and arange(9)[1::step] is [1, 3, 5, 7] there (mindaudio's
    # ConvTasNet.overlap_and_add); a bound computed from an input stays unknown and still raises
    @jax.jit
    def constant_step(array):
        frame, step = Tensor._wrap(array), Tensor(5 // 2)
        return frame[0:-1:step]._value, frame[1::step]._value

    evens, odds = constant_step(np.arange(9, dtype=np.int32))
    np.testing.assert_array_equal(evens, [0, 2, 4, 6])
    np.testing.assert_array_equal(odds, [1, 3, 5, 7])

    @jax.jit
    def input_step(array, step):
        return Tensor._wrap(array)[::Tensor._wrap(step)]._value

    with pytest.raises(IndexError, match="slice bound is a Tensor whose value is being compiled"):
        input_step(np.arange(9), np.int32(2))


def test_traced_boolean_mask():
    @jax.jit
    def read(array):
        tensor = Tensor._wrap(array)
        return tensor[tensor > 3]._value

    with pytest.raises(IndexError, match="boolean mask"):
        read(X)

    @jax.jit
    def write(array):
        tensor = Tensor._wrap(array)
        tensor[tensor > 3] = 0.0
        tensor[Tensor._wrap(array[..., 0] > 10)] = -1.0
        return tensor._value

    expected = np.where(X > 3, 0.0, X)
    expected[X[..., 0] > 10] = -1.0
    np.testing.assert_array_equal(write(X), expected)


def test_boolean_mask_read_in_compiled_code_runs_eagerly():
    # MindSpore 2.10's graph gives the dynamic-shape result (docs, Tensor index support: [1 3]); sporax runs the
    # function eagerly for that signature, with a warning.
    import sporax as ms
    from sporax.state import EagerFallbackWarning

    @ms.jit
    def select(x, mask):
        return x[mask]

    with pytest.warns(EagerFallbackWarning, match="boolean mask"):
        out = select(Tensor(np.array([1, 2, 3])), Tensor(np.array([True, False, True])))
    np.testing.assert_array_equal(out.asnumpy(), [1, 3])
