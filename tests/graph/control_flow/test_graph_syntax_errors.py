"""Syntax MindSpore's graph compiler refuses (``try``, ``del``, ``import``, ``yield``, sets, a class, ``:=``,
``nonlocal``, ``print(..., sep=...)``): in GRAPH_MODE and under
``ms.jit`` sporax raises MindSpore 2.10's RuntimeError and message; PyNative runs the same Python."""
import math

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.core.tensor import Tensor

X = Tensor(np.ones((2, 3), np.float32))


class WithTry(nn.Cell):
    def construct(self, x):
        try:
            y = x + 1
        except ValueError:
            y = x
        return y


class WithDelete(nn.Cell):
    def construct(self, x):
        y = x + 1
        del y
        return x


class WithImport(nn.Cell):
    def construct(self, x):
        import math as m
        return x * m.pi


class WithImportFrom(nn.Cell):
    def construct(self, x):
        from math import pi
        return x * pi


class WithNestedTry(nn.Cell):
    def construct(self, x):
        def inner(a):  # never called: MindSpore parses it all the same
            try:
                return a
            finally:
                pass
        return x


class WithSet(nn.Cell):
    def construct(self, x):
        values = {1, 2}
        return x + len(values)


class WithSetComprehension(nn.Cell):
    def construct(self, x):
        values = {i for i in range(2)}
        return x + len(values)


class WithClass(nn.Cell):
    def construct(self, x):
        class Local:
            scale = 2
        return x * Local.scale


class WithWalrus(nn.Cell):
    def construct(self, x):
        def inner():  # never called: MindSpore parses it all the same
            return (w := 3)
        return x + (z := 1)


class WithNonlocal(nn.Cell):
    def construct(self, x):
        z = 1

        def inner():
            nonlocal z
            z = 2
        inner()
        return x + z


class WithAsync(nn.Cell):
    def construct(self, x):
        async def inner():
            pass
        return x


# MindSpore 2.10's messages (CPU) for each.
CASES = [(WithTry, "statement 'Try'"), (WithDelete, "statement 'Delete'"), (WithImport, "statement 'Import'"),
         (WithImportFrom, "statement 'ImportFrom'"), (WithNestedTry, "statement 'Try'"), (WithSet, "expression 'Set'"),
         (WithSetComprehension, "expression 'SetComp'"), (WithClass, "statement 'ClassDef'"),
         (WithWalrus, "expression 'NamedExpr'"), (WithNonlocal, "statement 'Nonlocal'"),
         (WithAsync, "statement 'AsyncFunctionDef'")]


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("cell,what", CASES)
def test_graph_mode_refuses(cell, what, graph_mode):
    with pytest.raises(RuntimeError, match=f"Unsupported {what}"):
        cell()(X)


@pytest.mark.parametrize("cell,what", CASES)
def test_pynative_runs_it(cell, what):
    out = cell()(X).asnumpy()
    assert out.shape == (2, 3) and np.isfinite(out).all()
    if cell in (WithImport, WithImportFrom):
        np.testing.assert_allclose(out, np.full((2, 3), math.pi, np.float32), rtol=1e-6)
    if cell in (WithSet, WithSetComprehension, WithClass, WithWalrus, WithNonlocal):
        np.testing.assert_allclose(out, np.full((2, 3), 2.0 if cell in (WithClass, WithWalrus) else 3.0, np.float32))


def test_print_with_keywords_is_refused_as_mindspore(graph_mode):
    class PrintsWithSeparator(nn.Cell):
        def construct(self, x):
            print(x, x, sep=",")
            return x

    @ms.jit
    def prints_without_newline(x):
        print(x, end="")
        return x

    with pytest.raises(RuntimeError, match="^Got an unexpected keyword argument 'sep'"):
        PrintsWithSeparator()(X)
    with pytest.raises(RuntimeError, match="^Got an unexpected keyword argument 'end'"):
        prints_without_newline(X)


def test_calling_a_number_gives_mindspores_value_error():
    @ms.jit
    def calls_a_number(x):
        function = 1
        return function(x)

    with pytest.raises(ValueError, match=r"^The object is not callable. Please check code. \(int 1 is called"):
        calls_a_number(X)
    with pytest.raises(TypeError, match="'int' object is not callable"):
        calls_a_number.__wrapped__(X)  # PyNative: Python's TypeError


def _deletes(x):
    del x
    return 1


def test_jit_refuses_it_in_the_compiled_function():
    @ms.jit
    def generator(x):
        yield from [x]

    @ms.jit
    def deletes(x):
        y = x
        del y
        return x

    with pytest.raises(RuntimeError, match="Unsupported expression 'YieldFrom'"):
        generator(X)
    with pytest.raises(RuntimeError, match="Unsupported statement 'Delete'"):
        deletes(X)


def test_plain_functions_a_compiled_function_calls_are_traced_through():
    # A difference from MindSpore, which parses them too: sporax traces them as Python.
    @ms.jit
    def calls_a_deleting_helper(x):
        return x + _deletes(x)

    np.testing.assert_array_equal(calls_a_deleting_helper(X).asnumpy(), np.full((2, 3), 2.0, np.float32))


def test_a_tensor_tested_as_a_bool_gives_mindspores_message(graph_mode):
    class TestsATensor(nn.Cell):
        def construct(self, x):
            if x:
                return x
            return x + 1

    with pytest.raises(ValueError, match=r"Only tensor which shape is \(\) or \(1,\) can be converted to bool, "
                                         r"but got tensor shape is \(2, 3\)"):
        TestsATensor()(X)


class CallsItsFunction(nn.Cell):
    def __init__(self, function):
        super().__init__()
        self.function = function

    def construct(self, x):
        return self.function(x)


class WithDefaultLambda(nn.Cell):
    def __init__(self, function=lambda x: x + 1):
        super().__init__()
        self.function = function

    def construct(self, x):
        return self.function(x)


def _conditional_lambda(flag):
    return nn.ReLU() if flag else lambda x: x + 1


def test_a_lambda_written_on_a_def_line_gives_mindspores_value_error(graph_mode):
    # MindSpore 2.10 finds a lambda from outside the compiled code by its source line alone.
    with pytest.raises(ValueError, match="An error occurred while parsing the positional information of the "
                                         "lambda expression. Please write the lambda expression on a separate line"):
        WithDefaultLambda()(X)


def test_a_lambda_inside_a_larger_expression_gives_mindspores_type_error(graph_mode):
    with pytest.raises(TypeError, match="Parse Lambda Function Fail. Node type must be Lambda, but got IfExp"):
        CallsItsFunction(_conditional_lambda(False))(X)
    with pytest.raises(TypeError, match="Parse Lambda Function Fail. Node type must be Lambda, but got Call"):
        CallsItsFunction(dict(function=lambda x: x * 2)["function"])(X)


def test_a_lambda_on_its_own_line_or_inside_the_compiled_code_runs(graph_mode):
    add_one = lambda x: x + 1  # noqa: E731
    np.testing.assert_array_equal(CallsItsFunction(add_one)(X).asnumpy(), np.full((2, 3), 2.0, np.float32))

    class DefinesItsLambda(nn.Cell):
        def construct(self, x):
            return (lambda y: y * 3)(x)

    np.testing.assert_array_equal(DefinesItsLambda()(X).asnumpy(), np.full((2, 3), 3.0, np.float32))


def test_pynative_runs_a_lambda_wherever_it_is_written():
    # The difference is MindSpore's too: PyNative never parses the lambda's line.
    np.testing.assert_array_equal(WithDefaultLambda()(X).asnumpy(), np.full((2, 3), 2.0, np.float32))
    np.testing.assert_array_equal(CallsItsFunction(_conditional_lambda(False))(X).asnumpy(),
                                  np.full((2, 3), 2.0, np.float32))


def test_ms_jit_in_pynative_still_calls_a_lambda_from_a_list():
    # A difference from MindSpore, which refuses it under ms.jit too: sporax checks lambdas in GRAPH_MODE only.
    functions = [lambda x: x + 1]

    @ms.jit
    def apply(x):
        return functions[0](x)

    np.testing.assert_array_equal(apply(X).asnumpy(), np.full((2, 3), 2.0, np.float32))


class _CallsItself:
    @ms.jit
    def forward(self, x):
        return self(x)

    def __call__(self, x):
        return x


class _CallableStandIn:
    def __call__(self, x):
        return x * 2


def test_a_compiled_method_calling_its_own_instance_gives_mindspores_value_error():
    # MindSpore 2.10 holds an instance of the method's own (plain) class as its members only.
    with pytest.raises(ValueError, match="The object is not callable. Please check code"):
        _CallsItself().forward(X)
    # Another callable object in its place is called, as MindSpore calls it.
    np.testing.assert_array_equal(_CallsItself.forward(_CallableStandIn(), X).asnumpy(),
                                  np.full((2, 3), 2.0, np.float32))


def test_an_outer_compiled_function_may_call_that_method_with_the_instance():
    # MindSpore 2.10 inlines the method into the outer graph, where the instance is an argument it can call.
    @ms.jit
    def outer(instance, x):
        return _CallsItself.forward(instance, x)

    np.testing.assert_array_equal(outer(_CallsItself(), X).asnumpy(), X.asnumpy())
