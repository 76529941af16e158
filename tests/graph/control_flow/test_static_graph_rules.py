"""Rules of MindSpore's static graph that the converter follows (values recorded from MindSpore 2.10).

* An ``if`` on an expression of constants only (Tensors stored on the Cell) is decided while
  compiling: only the branch taken exists, so the branches may differ in shape.
* ``while ... else`` / ``for ... else`` are refused in a compiled function (RuntimeError), and run
  as Python in PyNative mode (a PyNative/Graph difference, pinned below).
* A jitted function that recurses without end raises RuntimeError naming infinite recursion.
"""
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.state import EagerFallbackWarning


@pytest.fixture(autouse=True)
def pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class ConstantCondition(nn.Cell):
    def __init__(self, flags, mask):
        super().__init__()
        self.flags = flags
        self.mask = mask

    def construct(self):
        if self.flags.all() == self.mask:
            return self.flags.any()  # shape ()
        return self.mask  # shape (1,)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_if_on_constants_keeps_only_the_branch_taken(mode):
    ms.set_context(mode=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)  # decided while compiling, not by a fallback
        taken = ConstantCondition(Tensor([True, True, False]), Tensor([False]))()
        other = ConstantCondition(Tensor([True, True]), Tensor([False]))()
    assert taken.shape == () and bool(taken.asnumpy()) is True  # MindSpore 2.10: True
    assert other.shape == (1,) and not other.asnumpy().any()


def test_if_on_an_argument_still_compiles_to_a_traced_branch():
    @ms.jit
    def pick(x, table):
        if table.sum() > x:  # depends on the argument x: a lax.cond
            return table * 2
        return table

    table = Tensor(np.array([1.0, 2.0], np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        np.testing.assert_array_equal(pick(Tensor(np.float32(0.0)), table).asnumpy(), [2.0, 4.0])
        np.testing.assert_array_equal(pick(Tensor(np.float32(9.0)), table).asnumpy(), [1.0, 2.0])


def while_else(x, y):
    while x > y:
        y += x
        break
    else:
        y = x + 6
    return y


def for_else(x, y):
    for _ in range(3):
        y += x
        break
    else:
        y = x + 6
    return y


@pytest.mark.parametrize("function, kind", [(while_else, "while"), (for_else, "for")])
def test_loop_else_is_refused_in_a_compiled_function(function, kind):
    with pytest.raises(RuntimeError, match=rf"The '{kind}\.\.\.else\.\.\.' statement is not supported now"):
        ms.jit(function)(Tensor([0], ms.int32), Tensor([2], ms.int32))


def test_pynative_graph_difference_loop_else_runs_as_python_in_pynative():
    # MindSpore's PyNative mode runs the function as Python; only the static graph refuses it.
    assert while_else(Tensor([0], ms.int32), Tensor([2], ms.int32)).asnumpy().tolist() == [6]
    assert for_else(Tensor([0], ms.int32), Tensor([2], ms.int32)).asnumpy().tolist() == [2]


@ms.jit
def endless(x):
    if x > 0:
        return endless(x - 1)
    return endless(x + 1)


@ms.jit
def countdown(x):
    if x > 0:
        return countdown(x - 1) + 1
    return Tensor([1], ms.int32)


def test_endless_recursion_in_jit_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="infinite recursion or loop"):
        endless(Tensor([5], ms.int32))


def _count(n):
    if n == 0:
        return 0
    return _count(n - 1) + 1


def test_a_recursion_deeper_than_the_limit_in_jit_is_a_runtime_error():
    # MindSpore 2.10: RuntimeError 'Exceed function call depth limit 1000, (function call depth: 1001, simulate
    # call depth: 1000).' for x + count(1200) in ms.jit (the error-analysis tutorial's case)
    @ms.jit
    def deep(x):
        return x + _count(1200)

    with pytest.raises(RuntimeError, match="^Exceed function call depth limit while running '.*deep': its calls nest "
                                           "deeper than the recursion limit"):
        deep(Tensor(1))


def test_finite_recursion_in_jit_gives_the_python_result():
    assert countdown(Tensor([3], ms.int32)).asnumpy().tolist() == [4]


def pairs_list():
    return [i + j for i in (1, 2) for j in (3, 4)]


def pairs_dict():
    groups = ({'a': 1, 'b': 2}, {'d': 1})
    return {k: v for group in groups for (k, v) in group.items()}


def one_generator():
    return {k: v * 2 for (k, v) in (('a', 1), ('b', 2)) if v > 1}, tuple(i for i in (1, 2))


@pytest.mark.parametrize("function, kind", [(pairs_list, "ListComp/GeneratorExp"),
                                            (pairs_dict, "DictComp/GeneratorExp")])
def test_comprehension_with_two_generators_is_refused_in_a_compiled_function(function, kind):
    with pytest.raises(TypeError, match=f"The 'generators' supports 1 'comprehension' in {kind}, but got 2"):
        ms.jit(function)()


def test_pynative_graph_difference_comprehension_with_two_generators_runs_in_pynative():
    assert pairs_list() == [4, 5, 5, 6]
    assert pairs_dict() == {'a': 1, 'b': 2, 'd': 1}


def test_comprehension_with_one_generator_compiles():
    assert ms.jit(one_generator)() == ({'b': 4}, (1, 2))  # MindSpore 2.10: the same


class Checked(nn.Cell):
    def construct(self, x, limit):
        if x > limit:
            raise ValueError(f"The input can not be {x}.")
        return x + limit


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_raise_in_a_tensor_branch_happens_only_when_the_branch_runs(mode):
    ms.set_context(mode=mode)
    net = Checked()
    assert net(Tensor(3), Tensor(10)).asnumpy().tolist() == 13
    with pytest.raises(ValueError, match=r"^The input can not be 11\.$"):  # MindSpore 2.10: the same message
        net(Tensor(11), Tensor(10))


class Smallest(nn.Cell):
    def construct(self, x):
        return min(x)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_min_of_a_mutable_scalar_is_not_iterable(mode):
    # MindSpore 2.10: TypeError "... object is not iterable" in both modes
    ms.set_context(mode=mode)
    with pytest.raises(TypeError, match="object is not iterable"):
        Smallest()(ms.mutable(1))


def both(x, y):
    return x and y


def either(x, y):
    return x or y


@pytest.mark.parametrize("mode", ["pynative", "jit"])
def test_and_or_on_tensors_give_an_operand(mode):
    # Python's (and MindSpore's) value semantics: `x and y` is y when x holds, else x.
    run = (lambda f: f) if mode == "pynative" else ms.jit
    one, two, zero = Tensor([1]), Tensor([2]), Tensor([0])
    assert run(both)(one, two).asnumpy().tolist() == [2]  # MindSpore 2.10: 2
    assert run(both)(zero, two).asnumpy().tolist() == [0]
    assert run(either)(one, two).asnumpy().tolist() == [1]
    assert run(either)(zero, two).asnumpy().tolist() == [2]


def early_return(x, y):
    if x < y:
        a = x * 2
    else:
        return y
    return a + 1


def test_variable_unassigned_in_a_branch_that_returned_is_not_needed():
    # MindSpore 2.10: 5.0 and 6.0 (the branch that returned never reads 'a')
    compiled = ms.jit(early_return)
    assert float(compiled(Tensor(2.0), Tensor(6.0)).asnumpy()) == 5.0
    assert float(compiled(Tensor(9.0), Tensor(6.0)).asnumpy()) == 6.0
    grad = ms.grad(compiled, grad_position=(0, 1))(Tensor(2.0), Tensor(6.0))
    assert [float(g.asnumpy()) for g in grad] == [2.0, 0.0]


class ClassmethodCall(nn.Cell):
    @classmethod
    def func(cls, x, y):
        return x + y

    def construct(self, x, y):
        return self.func(x, y)


class JitClassmethodCall(ClassmethodCall):
    @ms.jit
    def construct(self, x, y):
        return self.func(x, y)


def test_a_cell_classmethod_called_in_compiled_construct_raises():
    """MindSpore 2.10 (static-graph page): TypeError 'The parameters number of the function is 3, but the number
    of provided arguments is 2.' in GRAPH_MODE and under @jit; PyNative calls it as Python (returns 3)."""
    expected = "The parameters number of the function is 3, but the number of provided arguments is 2"
    with pytest.raises(TypeError, match=expected):
        JitClassmethodCall()(Tensor(1), Tensor(2))
    assert int(ClassmethodCall()(Tensor(1), Tensor(2))) == 3  # PyNative
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(TypeError, match=expected):
        ClassmethodCall()(Tensor(1), Tensor(2))


class SelflessFunction(nn.Cell):
    def func(x, y):  # no `self`: the IR page of MindSpore's tutorial (debug/error_analysis/mindir)
        return ops.div(x, y)

    @ms.jit
    def construct(self, x, y):
        a = ops.sub(x, 1)
        b = ops.add(a, y)
        if b:
            b = ops.mul(b, self.func(a, b))
        return b


class SelflessFunctionRead(nn.Cell):
    def func(x, y):
        return ops.div(x, y)

    def scaled(me, y):
        return y * 10

    def construct(self, x, y):
        f = self.func
        return f(x, y) + self.scaled(x, y)


class FirstParameterSelf(nn.Cell):
    def func(self, y):
        return y * 10

    def construct(self, x, y):
        return self.func(x, y)


def test_a_cell_function_without_self_is_called_unbound_in_compiled_code():
    """MindSpore 2.10: in compiled code `self.func(a, b)` calls a class function whose first parameter is not
    named `self` as a plain function (the IR page prints 2.0; reading `f = self.func` first gives 1.5 + 20.0);
    a first parameter named `self` is bound (one argument too many: TypeError). PyNative binds as Python."""
    assert float(SelflessFunction()(Tensor(3.0), Tensor(2.0))) == 2.0
    with pytest.raises(TypeError):
        SelflessFunctionRead()(Tensor(3.0), Tensor(2.0))  # PyNative: Python's binding
    ms.set_context(mode=ms.GRAPH_MODE)
    assert float(SelflessFunctionRead()(Tensor(3.0), Tensor(2.0))) == 21.5
    with pytest.raises(TypeError):
        FirstParameterSelf()(Tensor(3.0), Tensor(2.0))


def test_a_name_read_before_any_assignment_is_mindspores_name_error():
    # MindSpore 2.10: NameError "The name 'zz' is not defined, or not supported in graph mode."
    @ms.jit
    def accumulates():
        for i in (1, 2, 3):
            zz += i  # noqa: F821 - read before any assignment, no global of that name
        return zz

    with pytest.raises(NameError, match="^The name 'zz' is not defined, or not supported in graph mode"):
        accumulates()


def test_a_variable_the_while_body_defines_is_undefined_after_the_loop():
    # MindSpore 2.10, even on Python values: UnboundLocalError "The local variable 'z' defined in the 'while' loop
    # body cannot be used outside of the loop body. Please define variable 'z' before 'while'."
    @ms.jit
    def defined_in_body(x, y):
        while x < y:
            x += 1
            z = x + y
        return z

    @ms.jit
    def defined_before(x, y):
        z = 0
        while x < y:
            x += 1
            z = x + y
        return z

    with pytest.raises(UnboundLocalError, match="^The local variable 'z' defined in the 'while' loop body cannot be "
                                                "used outside of the loop body. Please define variable 'z' before "
                                                "'while'"):
        defined_in_body(1, 5)
    assert defined_before(1, 5) == 10


def test_pynative_keeps_a_variable_the_while_body_defines():
    class DefinedInBody(nn.Cell):
        def construct(self, x, y):
            while x < y:
                x += 1
                z = x + y
            return z

    assert DefinedInBody()(1, 5) == 10
