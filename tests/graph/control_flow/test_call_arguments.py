"""A call whose arguments do not fit a Python function, in compiled code (a GRAPH_MODE construct, ``ms.jit``):
MindSpore's graph compiler binds the arguments itself and raises its own errors, where PyNative raises Python's
TypeError (a function of plain positional parameters called positionally compares the counts: TypeError). Each
row below is recorded on MindSpore 2.10 (its "Function:helper_2" carries a graph node number,
which sporax leaves out)."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops
from sporax.core.tensor import Tensor

X = Tensor(np.ones((2, 3), np.float32))


def helper(a, b=1):
    return a + b


def keyword_only(a, *, scale):
    return a * scale


def fixed(a, b):
    return a * b


class OpsKeyword(nn.Cell):
    def construct(self, x):
        return ops.max(x, axis=1, keep_dims=True)  # mindpose's decoder, written for an older ops.max


class UnknownKeyword(nn.Cell):
    def construct(self, x):
        return helper(x, bad=1)


class TooManyPositional(nn.Cell):
    def construct(self, x):
        return helper(x, 1, 2)


class MissingKeywordOnly(nn.Cell):
    def construct(self, x):
        return keyword_only(x)


class MissingPositional(nn.Cell):
    def construct(self, x):
        return helper()


class FixedArityFewer(nn.Cell):
    def construct(self, x):
        return fixed(x)


class FixedArityMore(nn.Cell):
    def construct(self, x):
        return fixed(x, x, x)


class FixedArityByKeyword(nn.Cell):
    def construct(self, x):
        return fixed(a=x)


class TwiceGiven(nn.Cell):
    def construct(self, x):
        return helper(x, 1, b=2)


class MethodKeyword(nn.Cell):
    def helper(self, a, b=1):
        return a + b

    def construct(self, x):
        return self.helper(x, bad=2)


class TensorMethodKeyword(nn.Cell):
    def construct(self, x):
        return x.sum(foo=1)


class Fitting(nn.Cell):
    def construct(self, x):
        return helper(x, b=2) + keyword_only(x, scale=3)


GRAPH_ERRORS = [
    (OpsKeyword, RuntimeError, "^Got an unexpected keyword argument 'keep_dims'"),
    (UnknownKeyword, RuntimeError, "^Got an unexpected keyword argument 'bad'"),
    (TooManyPositional, RuntimeError, r"^Function:helper takes 2 positional arguments, but 3 were given\."),
    (MissingKeywordOnly, RuntimeError, "^Miss argument input for parameter:scale"),
    (MissingPositional, RuntimeError, "^Miss argument input for parameter:a"),
    (FixedArityFewer, TypeError, "^The parameters number of the function is 2, but the number of provided arguments "
                                 "is 1."),
    (FixedArityMore, TypeError, "^The parameters number of the function is 2, but the number of provided arguments "
                                "is 3."),
    (FixedArityByKeyword, RuntimeError, "^Miss argument input for parameter:b"),
    (TwiceGiven, TypeError, "^Multiply values for specific argument: b"),
    (MethodKeyword, RuntimeError, "^Got an unexpected keyword argument 'bad'"),
    (TensorMethodKeyword, TypeError, "foo"),  # a Tensor method keeps its TypeError in MindSpore's graph too
]


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("cell,error,message", GRAPH_ERRORS, ids=[row[0].__name__ for row in GRAPH_ERRORS])
def test_graph_mode_raises_mindspores_binding_errors(cell, error, message, graph_mode):
    with pytest.raises(error, match=message):
        cell()(X)


@pytest.mark.parametrize("cell", [row[0] for row in GRAPH_ERRORS], ids=[row[0].__name__ for row in GRAPH_ERRORS])
def test_pynative_keeps_pythons_type_error(cell):
    with pytest.raises(TypeError):
        cell()(X)


def test_jit_raises_the_graph_error_in_pynative_mode():
    @ms.jit
    def jitted(x):
        return helper(x, bad=1)

    with pytest.raises(RuntimeError, match="^Got an unexpected keyword argument 'bad'"):
        jitted(X)


def test_an_error_inside_a_fitting_call_is_left_as_it_is(graph_mode):
    def raises_inside(a, b=1):
        return len(a, b)  # len's own TypeError: the call to raises_inside fits

    class Inner(nn.Cell):
        def construct(self, x):
            return raises_inside(x)

    with pytest.raises(TypeError, match="positional argument"):
        Inner()(X)
    np.testing.assert_allclose(Fitting()(X).asnumpy(), np.full((2, 3), 6.0, np.float32))


@ms.jit
def two_inputs(x, y):
    return x + y


@ms.jit
def with_defaults(x, y=1, *, z=2):
    return x + y + z


@ms.jit
def keyword_only_input(x, *, z):
    return x * z


class TwoInputs(nn.Cell):
    def construct(self, x, y):
        return x + y


class DefaultInput(nn.Cell):
    def construct(self, x, y=1):
        return x + y


# A jitted function or a GRAPH_MODE Cell called with arguments that do not bind: MindSpore 2.10's errors.
_CELL_FEWER = ("For 'Cell', the function construct requires 2 positional argument, but got 1. When using set_inputs, "
               "please make sure that all networks and loss functions are configured with set_inputs.")
ENTRY_ERRORS = [
    (two_inputs, (X,), {}, TypeError, "Function two_inputs needs 2 positional argument, but got 1."),
    (two_inputs, (X, X, X), {}, TypeError,
     "Function two_inputs needs 2 positional argument and 0 default argument, total 2, but got 3."),
    (with_defaults, (), {}, TypeError, "Function with_defaults needs 1 positional argument, but got 0."),
    (with_defaults, (X, 1, 2), {}, TypeError,
     "Function with_defaults needs 1 positional argument and 1 default argument, total 2, but got 3."),
    (two_inputs, (X, X), {"k": 1}, TypeError, "got an unexpected keyword argument 'k'"),
    (two_inputs, (X,), {"x": X}, TypeError, "multiple values for argument 'x'"),
    (keyword_only_input, (X,), {}, RuntimeError, "Miss argument input for parameter:z"),
    (TwoInputs(), (X,), {}, TypeError, _CELL_FEWER),
    (TwoInputs(), (X, X, X), {}, TypeError,
     "For 'Cell', the function construct requires 2 positional argument and 0 default argument, total 2, but got 3."),
    (DefaultInput(), (X, X, X), {}, TypeError,
     "For 'Cell', the function construct requires 1 positional argument and 1 default argument, total 2, but got 3."),
]


@pytest.mark.parametrize("program,args,kwargs,error,message", ENTRY_ERRORS)
def test_entry_arguments_that_do_not_bind_raise_mindspores_error(program, args, kwargs, error, message, graph_mode):
    with pytest.raises(error) as caught:
        program(*args, **kwargs)
    assert str(caught.value) == message


def test_entry_arguments_that_bind_run(graph_mode):
    np.testing.assert_allclose(with_defaults(X, z=3).asnumpy(), np.full((2, 3), 5.0, np.float32))
    np.testing.assert_allclose(DefaultInput()(X).asnumpy(), np.full((2, 3), 2.0, np.float32))
