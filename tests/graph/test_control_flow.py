"""Python control flow on tensors compiled by GRAPH_MODE and ms.jit (sporax.graph.control_flow).

Each construct runs compiled (an EagerFallbackWarning is an error here) in GRAPH_MODE and under
ms.jit, and must give the PyNative values and the NumPy reference; gradients are compared with
central finite differences of the NumPy reference.
"""
import contextlib
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.state import EagerFallbackWarning

rng = np.random.RandomState(0)


@pytest.fixture(autouse=True)
def pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class FunctionCell(nn.Cell):
    """A Cell whose construct calls ``function`` (a user function: converted as MindSpore parses it)."""

    def __init__(self, function):
        super().__init__()
        self.function = function

    def construct(self, *args):
        return self.function(*args)


def _numpy(value):
    return value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)


def _finite_difference(reference, inputs, eps=1e-3):
    base = [np.asarray(x, np.float64) for x in inputs]
    grad = np.zeros_like(base[0])
    for index in np.ndindex(base[0].shape):
        plus = [b.copy() for b in base]
        minus = [b.copy() for b in base]
        plus[0][index] += eps
        minus[0][index] -= eps
        grad[index] = (np.sum(reference(*plus)) - np.sum(reference(*minus))) / (2 * eps)
    return grad


def check(function, reference, *inputs, gradient=True):
    """Compiled (GRAPH_MODE Cell, ms.jit) == PyNative == NumPy; compiled gradient == finite differences."""
    tensors = [Tensor(x) for x in inputs]
    expected = reference(*inputs)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = function(*tensors)
    np.testing.assert_allclose(_numpy(eager), expected, rtol=1e-5, atol=1e-5)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        np.testing.assert_allclose(_numpy(ms.jit(function)(*tensors)), expected, rtol=1e-5, atol=1e-5)
        ms.set_context(mode=ms.GRAPH_MODE)
        cell = FunctionCell(function)
        np.testing.assert_allclose(_numpy(cell(*tensors)), expected, rtol=1e-5, atol=1e-5)
        if gradient:
            value, grad = ms.value_and_grad(lambda *a: cell(*a).sum(), grad_position=0)(*tensors)
            np.testing.assert_allclose(value.asnumpy(), np.sum(expected), rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(grad.asnumpy(), _finite_difference(reference, inputs), rtol=2e-2, atol=2e-2)
    ms.set_context(mode=ms.PYNATIVE_MODE)


X = rng.randn(3).astype(np.float32)


# --- if / elif / else, conditional expressions, boolean operators ---------------------------------------
def branches(x):
    if x.sum() > 1:
        y = x * 2
    elif x.sum() > -1:
        y = x * x
    else:
        y = -x
    return y + 1


def branches_np(x):
    s = np.sum(x)
    return (x * 2 if s > 1 else x * x if s > -1 else -x) + 1


@pytest.mark.parametrize("shift", [3.0, 0.0, -3.0])
def test_if_elif_else(shift):
    check(branches, branches_np, X + shift)


def conditional_expression(x):
    return x * 3 if x.max() > 0.5 else x - 1


@pytest.mark.parametrize("shift", [1.0, -1.0])
def test_conditional_expression(shift):
    check(conditional_expression, lambda x: x * 3 if np.max(x) > 0.5 else x - 1, X + shift)


def boolean_operators(x):
    if x.sum() > 0 and not x.min() > 1 or x.max() < -5:
        return x * 2
    return x


def test_boolean_operators_on_tensors():
    reference = lambda x: x * 2 if (np.sum(x) > 0 and not np.min(x) > 1) or np.max(x) < -5 else x  # noqa: E731
    check(boolean_operators, reference, X + 0.5)
    check(boolean_operators, reference, X + 3.0)


def python_constant_branch(x, scale=2):
    if scale > 1:  # a Python value: plain Python, unrolled at trace time
        x = x * scale
    return x


def test_python_constant_condition_stays_python():
    check(python_constant_branch, lambda x: x * 2, X)


# --- loops ----------------------------------------------------------------------------------------------
def while_loop(x, n):
    i = Tensor(0, ms.int32)
    while i < n:
        x = x * 0.5 + 1
        i = i + 1
    return x


def test_while_on_tensor_condition_compiles():
    def reference(x, n):
        for _ in range(int(n)):
            x = x * 0.5 + 1
        return x

    check(while_loop, reference, X, np.array(4, np.int32), gradient=False)


def for_range_tensor(x, n):
    total = x * 0
    for i in range(n):
        total = total + x * i
    return total


def test_for_range_with_tensor_bound():
    check(for_range_tensor, lambda x, n: x * sum(range(int(n))), X, np.array(5, np.int32), gradient=False)


def for_rows(x):
    total = x[0] * 0
    for row in x:
        total = total * 0.5 + ops.tanh(row)
    return total


def test_for_over_tensor_rows_is_a_differentiable_scan():
    def reference(x):
        total = x[0] * 0
        for row in x:
            total = total * 0.5 + np.tanh(row)
        return total

    check(for_rows, reference, rng.randn(4, 3).astype(np.float32))


def break_continue(x):
    for i in range(6):
        if x.sum() > 20:
            break
        if i % 2 == 1:
            continue
        if x.max() > 3:
            continue
        x = x * 1.5
    return x


def test_break_and_continue_on_tensor_conditions():
    def reference(x):
        for i in range(6):
            if np.sum(x) > 20:
                break
            if i % 2 == 1 or np.max(x) > 3:
                continue
            x = x * 1.5
        return x

    check(break_continue, reference, np.abs(X) + 1)


def while_with_break(x, limit):
    i = Tensor(0, ms.int32)
    while i < 100:
        x = x + 1
        if x.sum() > limit:
            break
        i = i + 1
    return x


def test_while_with_break_on_tensor():
    def reference(x, limit):
        for _ in range(100):
            x = x + 1
            if np.sum(x) > limit:
                break
        return x

    check(while_with_break, reference, X, np.array(20.0, np.float32), gradient=False)


def early_return(x):
    for _ in range(5):
        x = x * 2
        if x.sum() > 10:
            return x - 100
    return x


def test_early_return_inside_loop():
    def reference(x):
        for _ in range(5):
            x = x * 2
            if np.sum(x) > 10:
                return x - 100
        return x

    check(early_return, reference, np.abs(X) + 0.1)
    check(early_return, reference, -np.abs(X))


def nested(x):
    i = 0
    while i < 4:
        for row_index in range(2):
            if x.sum() > 0:
                x = x * 0.9 + row_index
            else:
                x = x + 1
        i += 1
    return x


def test_nested_while_for_if():
    def reference(x):
        for _ in range(4):
            for row_index in range(2):
                x = x * 0.9 + row_index if np.sum(x) > 0 else x + 1
        return x

    check(nested, reference, X - 1)


# --- Cells, Parameters, training ------------------------------------------------------------------------
class Gate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 3)

    def construct(self, x):
        if x.sum() > 0:
            return self.dense(x)
        return x * 0.5


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gate = Gate()

    def construct(self, x):
        i = 0
        while i < 3:
            x = self.gate(x)
            i += 1
        return x


def test_sub_cell_with_control_flow_compiles_in_graph_mode_and_jit():
    net = Outer()
    x = Tensor(rng.randn(2, 3).astype(np.float32))
    expected = net(x).asnumpy()  # PyNative
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        np.testing.assert_allclose(ms.jit(net)(x).asnumpy(), expected, rtol=1e-5)
        ms.set_context(mode=ms.GRAPH_MODE)
        np.testing.assert_allclose(net(x).asnumpy(), expected, rtol=1e-5)


class CountingNet(nn.Cell):
    """Parameter writes inside converted branches and loops: ops.assign and BatchNorm statistics."""

    def __init__(self):
        super().__init__()
        self.count = ms.Parameter(Tensor(0.0, ms.float32), name="count", requires_grad=False)
        self.norm = nn.BatchNorm1d(3)
        self.dense = nn.Dense(3, 1)

    def construct(self, x):
        if x.sum() > 0:
            x = self.norm(x)
            ops.assign(self.count, self.count + 1)
        steps = Tensor(0, ms.int32)
        while steps < 2:
            ops.assign_add(self.count, Tensor(10.0, ms.float32))
            steps = steps + 1
        return self.dense(x).sum()


def test_parameter_writes_inside_converted_control_flow():
    x_pos = Tensor(np.abs(rng.randn(4, 3)).astype(np.float32))
    x_neg = Tensor(-np.abs(rng.randn(4, 3)).astype(np.float32))
    eager = CountingNet()
    eager.set_train()
    compiled = CountingNet()
    compiled.set_train()
    ms.load_param_into_net(compiled, {p.name: ms.Parameter(p.data.copy(), name=p.name)
                                      for p in eager.get_parameters()})
    eager_values = [eager(x).asnumpy() for x in (x_pos, x_neg)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        ms.set_context(mode=ms.GRAPH_MODE)
        compiled_values = [compiled(x).asnumpy() for x in (x_pos, x_neg)]
    np.testing.assert_allclose(compiled_values, eager_values, rtol=1e-5)
    assert float(compiled.count.asnumpy()) == float(eager.count.asnumpy()) == 41.0
    np.testing.assert_allclose(compiled.norm.moving_mean.asnumpy(), eager.norm.moving_mean.asnumpy(), rtol=1e-6)


class IssueNet(nn.Cell):
    """The issue's example: `while i < 10` with `if x.sum() > 0` inside."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        i = 0
        while i < 10:
            if x.sum() > 0:
                x = ops.tanh(self.dense(x))
            else:
                x = x * 0.5 + 0.1
            i += 1
        return x.sum()


def test_train_one_step_and_value_and_grad_through_control_flow():
    data = Tensor(rng.randn(2, 4).astype(np.float32))
    eager, compiled = IssueNet(), IssueNet()
    for p, q in zip(compiled.trainable_params(), eager.trainable_params()):
        p.set_data(q.data.copy())
    eager_grads = ms.value_and_grad(eager, None, eager.trainable_params())(data)
    trainer_eager = nn.TrainOneStepCell(eager, nn.SGD(eager.trainable_params(), 0.05))
    eager_losses = [trainer_eager(data).asnumpy() for _ in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        ms.set_context(mode=ms.GRAPH_MODE)
        compiled_grads = ms.value_and_grad(compiled, None, compiled.trainable_params())(data)
        trainer = nn.TrainOneStepCell(compiled, nn.SGD(compiled.trainable_params(), 0.05))
        losses = [trainer(data).asnumpy() for _ in range(3)]
    np.testing.assert_allclose(compiled_grads[0].asnumpy(), eager_grads[0].asnumpy(), rtol=1e-5)
    for got, want in zip(compiled_grads[1], eager_grads[1]):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-4)


# --- errors and fallbacks ---------------------------------------------------------------------------------
def one_branch_only(x):
    if x.sum() > 0:
        y = x * 2
    return y


def test_variable_defined_in_one_branch_is_an_error():
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(UnboundLocalError, match="'y' is not defined in false branch, but defined in true branch"):
        FunctionCell(one_branch_only)(Tensor(X))


def mismatched_shapes(x):
    if x.sum() > 0:
        x = x[:2]
    return x


def test_branches_with_different_shapes_run_eagerly_with_the_python_result():
    # MindSpore joins the two shapes into a dynamic shape and returns the branch taken; one XLA
    # program cannot, so sporax warns once and runs the function eagerly (same values).
    with pytest.warns(EagerFallbackWarning, match="Shape Join Failed"):
        out = ms.jit(mismatched_shapes)(Tensor(X))
    expected = X[:2] if X.sum() > 0 else X
    np.testing.assert_array_equal(out.asnumpy(), expected)


def growing_in_loop(x, i):
    out = x
    while i < 3:
        out = ops.expand_dims(out + 1, -1)
        i = i + 1
    return out


def shrinking_in_loop(x, i):
    out = x
    while i < 3:
        out = out[:2]
        i = i + 1
    return out


def test_loop_that_changes_a_rank_raises_and_one_that_changes_a_size_runs_as_mindspore():
    # MindSpore 2.10 (ms.jit, and GRAPH_MODE alike): a rank that changes from one iteration to the next cannot be
    # joined: 'RuntimeError: Exceed function call depth limit 1000, (function call depth: 1001, ...)'; a size
    # that changes is joined into a dynamic shape and the loop runs ([0. 1.] here). One XLA loop cannot hold that
    # shape: sporax warns once and runs the function eagerly.
    with pytest.raises(RuntimeError, match="^Exceed function call depth limit 1000: in the 'while' at line"):
        ms.jit(growing_in_loop)(Tensor(np.float32(0.0)), Tensor(np.int32(0)))
    with pytest.warns(EagerFallbackWarning, match="Shape Join Failed"):
        out = ms.jit(shrinking_in_loop)(Tensor(np.arange(4.0, dtype=np.float32)), Tensor(np.int32(0)))
    np.testing.assert_array_equal(out.asnumpy(), [0.0, 1.0])


def while_on_tensor_in_gradient(x):
    while x.sum() < 10:
        x = x * 2
    return x


def test_unbounded_while_under_gradient_compiles():
    ms.set_context(mode=ms.GRAPH_MODE)
    cell = FunctionCell(while_on_tensor_in_gradient)
    x = np.abs(X) + 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        value, grad = ms.value_and_grad(lambda a: cell(a).sum())(Tensor(x))
    factor = 1.0
    y = x.copy()
    while y.sum() < 10:
        y, factor = y * 2, factor * 2
    np.testing.assert_allclose(value.asnumpy(), y.sum(), rtol=1e-5)
    np.testing.assert_allclose(grad.asnumpy(), np.full(3, factor), rtol=1e-5)


def test_value_and_grad_of_a_function_with_control_flow_in_graph_mode():
    def loss(x):
        if x.sum() > 0:
            return (x * x).sum()
        return (x * 3).sum()

    ms.set_context(mode=ms.GRAPH_MODE)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        for sign in (1.0, -1.0):
            x = np.abs(X) * sign
            value, grad = ms.value_and_grad(loss)(Tensor(x))
            np.testing.assert_allclose(value.asnumpy(), (x * x).sum() if sign > 0 else (3 * x).sum(), rtol=1e-5)
            np.testing.assert_allclose(grad.asnumpy(), 2 * x if sign > 0 else np.full(3, 3.0), rtol=1e-5)


def test_unsupported_syntax_falls_back_naming_line_and_construct():
    @ms.jit
    def counts(x):
        with contextlib.nullcontext():  # a return inside 'with' the converter cannot express
            if x.sum() > 0:
                return x * 2
        return x

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.testing.assert_allclose(counts(Tensor(X + 5)).asnumpy(), (X + 5) * 2, rtol=1e-6)
    messages = [str(w.message) for w in caught if issubclass(w.category, EagerFallbackWarning)]
    assert len(messages) == 1
    assert "return inside 'with'" in messages[0] and "if x.sum() > 0" in messages[0]


def test_nonlocal_is_refused_as_mindspore():
    seen = 0

    @ms.jit
    def counts(x):
        nonlocal seen
        seen = 1
        return x

    with pytest.raises(RuntimeError, match="^Unsupported statement 'Nonlocal'"):  # MindSpore 2.10's error
        counts(Tensor(X))


class SingleWhile(nn.Cell):
    def construct(self, x, y):
        x += 1
        while x < y:
            x += 1
        return y + 2 * x


def test_converted_while_exports_and_loads(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = SingleWhile()
    x, y = Tensor(np.array([1.0], np.float32)), Tensor(np.array([4.5], np.float32))
    expected = net(x, y).asnumpy()
    np.testing.assert_allclose(expected, [4.5 + 2 * 5.0])
    # MindSpore 2.10: x += 1 before the loop makes x the caller's Tensor, so the loop's updates reach it too
    np.testing.assert_allclose(x.asnumpy(), [5.0])
    x = Tensor(np.array([1.0], np.float32))
    path = str(tmp_path / "while_net")
    ms.export(net, x, y, file_name=path, file_format="MINDIR")
    loaded = nn.GraphCell(ms.load(path + ".mindir"))
    np.testing.assert_allclose(loaded(x, y).asnumpy(), expected)
    np.testing.assert_allclose(loaded(x, Tensor(np.array([9.0], np.float32))).asnumpy(), [9.0 + 2 * 9.0])


class AttributeWrites(nn.Cell):
    """``self.param = value`` inside converted control flow is a Parameter write (set_data), lifted."""

    def __init__(self):
        super().__init__()
        self.total = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="total", requires_grad=False)

    def construct(self, x, n):
        i = Tensor(0, ms.int32)
        while i < n:
            self.total = self.total + x
            i = i + 1
        if x.sum() > 0:
            self.total = self.total * 2
        return self.total


def test_parameter_attribute_store_inside_converted_loop():
    eager, compiled = AttributeWrites(), AttributeWrites()
    x, n = Tensor(X), Tensor(3, ms.int32)
    expected = [eager(x, n).asnumpy() for _ in range(2)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        ms.set_context(mode=ms.GRAPH_MODE)
        got = [compiled(x, n).asnumpy() for _ in range(2)]
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    np.testing.assert_allclose(compiled.total.asnumpy(), eager.total.asnumpy(), rtol=1e-6)
