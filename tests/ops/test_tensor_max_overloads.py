"""``Tensor.max``/``min`` overloads: what MindSpore 2.10 (CPU) returns in PyNative, in GRAPH_MODE and under
``ms.jit``. In a compiled graph a positional argument is ``axis`` (values only); eagerly it is ``dim``
(values and indices)."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.core.tensor import Tensor

X = Tensor(np.array([[1.0, 3.0], [4.0, 2.0]], np.float32))

# GRAPH_MODE compiles each expression from its own line (MindSpore refuses a lambda inside a larger
# expression there), so each is a named function.


def max_positional(x):
    return x.max(1)


def max_axis(x):
    return x.max(axis=1)


def max_dim(x):
    return x.max(dim=1)


def max_positional_keep(x):
    return x.max(1, True)


def max_dim_keep(x):
    return x.max(dim=1, keepdim=True)


def max_all(x):
    return x.max()


def min_positional(x):
    return x.min(1)


def max_axis_indices(x):
    return x.max(axis=1, return_indices=True)


def max_positional_keepdims(x):
    return x.max(1, keepdims=True)


def max_positional_list(x):
    return x.max([1])


def min_positional_tuple(x):
    return x.min((0, 1))


CASES = [  # (expression, PyNative: with indices, GRAPH: with indices), recorded from MindSpore 2.10
    (max_positional, True, False),
    (max_axis, False, False),
    (max_dim, True, True),
    (max_positional_keep, True, False),
    (max_dim_keep, True, True),
    (max_all, False, False),
    (min_positional, True, False),
    (max_axis_indices, True, True),
    (max_positional_keepdims, False, False),
    (max_positional_list, False, False),  # a list or tuple in the position is an axis: values only
    (min_positional_tuple, False, False),
]


class Apply(nn.Cell):
    def __init__(self, function):
        super().__init__()
        self.function = function

    def construct(self, x):
        return self.function(x)


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _check(result, with_indices, function):
    expected_values = function(Tensor(X.asnumpy()))  # evaluated eagerly for the reference values
    if with_indices:
        assert isinstance(result, tuple) and len(result) == 2
        np.testing.assert_array_equal(result[0].asnumpy(), expected_values[0].asnumpy()
                                      if isinstance(expected_values, tuple) else expected_values.asnumpy())
    else:
        assert isinstance(result, Tensor)
        reference = expected_values[0] if isinstance(expected_values, tuple) else expected_values
        np.testing.assert_array_equal(result.asnumpy(), reference.asnumpy())


@pytest.mark.parametrize("index", range(len(CASES)))
def test_pynative(index):
    function, eager, _ = CASES[index]
    _check(Apply(function)(X), eager, function)


@pytest.mark.parametrize("index", range(len(CASES)))
def test_graph_mode(index, graph_mode):
    function, _, compiled = CASES[index]
    _check(Apply(function)(X), compiled, function)


def test_jit_function_in_pynative_is_compiled():
    @ms.jit
    def row_max(x):
        return x.max(1)

    result = row_max(X)
    assert isinstance(result, Tensor)
    np.testing.assert_array_equal(result.asnumpy(), [3.0, 4.0])


def test_a_pynative_gradient_stays_eager():
    gradient = ms.grad(lambda x: x.max(1)[0].sum())(X)
    np.testing.assert_array_equal(gradient.asnumpy(), [[0.0, 1.0], [1.0, 0.0]])


def test_positional_axis_list_values():
    # MindSpore 2.10, PyNative: x.max([1]) -> [3., 4.]; x.min((0, 1)) -> 1.0 (values only)
    np.testing.assert_array_equal(X.max([1]).asnumpy(), [3.0, 4.0])
    assert X.min((0, 1)).asnumpy() == 1.0
