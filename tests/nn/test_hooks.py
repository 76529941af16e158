"""Cell hooks and ops.HookBackward against MindSpore 2.10 (tests/fixtures/oracle/hooks.json).

The scenarios are defined once in tests/fixtures/oracle/hooks_cases.py: record_hooks.py ran them
on MindSpore; here sporax runs them in PYNATIVE_MODE (op by op, and with sporax's default of
compiling PyNative gradients) and in GRAPH_MODE. The known differences between the modes, and
between sporax and MindSpore, are the named tests below.
"""
import json
import os
import sys
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops
from sporax.autodiff.grad import set_pynative_jit
from sporax.core import context
from sporax.core.tensor import Tensor

ORACLE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "oracle")
sys.path.insert(0, ORACLE_DIR)
from hooks_cases import run_cases  # noqa: E402

with open(os.path.join(ORACLE_DIR, "hooks.json")) as _handle:
    ORACLE = json.load(_handle)


def _run(mode, pynative_jit=True):
    set_pynative_jit(pynative_jit)
    if mode == "graph":
        context.set_context(mode=context.GRAPH_MODE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return run_cases(ms, mode)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
        set_pynative_jit(True)


@pytest.fixture(scope="module")
def results():
    return {"eager": _run("pynative", pynative_jit=False), "compiled": _run("pynative"), "graph": _run("graph")}


@pytest.mark.parametrize("key", sorted(ORACLE["pynative"]))
@pytest.mark.parametrize("variant", ["eager", "compiled"])
def test_pynative_matches_mindspore(results, variant, key):
    assert results[variant][key] == ORACLE["pynative"][key]


@pytest.mark.parametrize("key", sorted(ORACLE["graph"]))
def test_graph_mode_matches_mindspore(results, key):
    assert results["graph"][key] == ORACLE["graph"][key]


def test_same_keys_as_oracle(results):
    assert sorted(results["eager"]) == sorted(ORACLE["pynative"])
    assert sorted(results["graph"]) == sorted(ORACLE["graph"])


# --- handles and the fast path ----------------------------------------------------------------
def _x():
    return Tensor(np.array([[1.0, -2.0, 3.0]], np.float32))


def test_handles_remove_and_cell_returns_to_the_plain_path():
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    assert net._hooks is None
    handles = [net.register_forward_pre_hook(lambda cell, inputs: None),
               net.register_forward_hook(lambda cell, inputs, output: None),
               net.register_backward_pre_hook(lambda cell, grad_output: None),
               net.register_backward_hook(lambda cell, grad_input, grad_output: None)]
    assert len({handle.handle_id for handle in handles}) == 4
    for handle in handles:
        handle.remove()
    assert net._hooks is None


def test_handle_is_a_context_manager():
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    with net.register_forward_hook(lambda cell, inputs, output: output * 0):
        assert np.all(net(_x()).asnumpy() == 0)
    assert np.all(net(_x()).asnumpy() == 2)


def test_always_call_forward_hook_runs_when_construct_raises():
    class Failing(nn.Cell):
        def construct(self, data):
            raise ValueError("boom")

    seen = []
    cell = Failing()
    cell.register_forward_hook(lambda c, inputs, output: seen.append(("always", output)), always_call=True)
    cell.register_forward_hook(lambda c, inputs, output: seen.append(("plain", output)))
    with pytest.raises(ValueError, match="boom"):
        cell(_x())
    assert seen == [("always", None)]


def test_argument_errors():
    net = nn.Dense(3, 2)
    with pytest.raises(TypeError, match="callable"):
        net.register_forward_hook(3)
    with pytest.raises(TypeError, match="prepend"):
        net.register_forward_pre_hook(lambda cell, inputs: None, prepend=1)
    net.register_forward_pre_hook(lambda cell, args, kwargs: args, with_kwargs=True)
    # MindSpore 2.10 (recorded; also for a generator, a list or a 3-tuple): a RuntimeError
    with pytest.raises(RuntimeError, match=r"^forward pre hook with kwargs must return None or a tuple of "
                                           r"\(new_args, new_kwargs\), but got tuple .*Dense.*with_kwargs=True"):
        net(_x())
    generating = nn.Dense(3, 2)
    generating.register_forward_pre_hook(lambda cell, args, kwargs: (a * 2 for a in args), with_kwargs=True)
    with pytest.raises(RuntimeError, match="but got generator"):
        generating(_x())
    wrong = nn.Dense(3, 2)
    wrong.register_backward_hook(lambda cell, grad_input, grad_output: (Tensor(np.ones(4, np.float32)),))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # MindSpore 2.10 (recorded): the same shape and dtype only, no broadcast
        with pytest.raises(ValueError, match=r"^The output type of function: hook_backward_grad is not consistent "
                                             r"with the expected, it should be Tensor shape:\[\[const vector\]\{1, 3\}\]"
                                             r"Float32, but got Tensor shape:\[\[const vector\]\{4\}\]Float32"):
            ms.grad(wrong)(_x())


def test_jit_decorated_hooks_are_refused_at_registration():
    # MindSpore 2.10: TypeError "Decorating hook function h with '@jit' is not supported." from every
    # register_*_hook of a Cell and from Tensor.register_hook.
    @ms.jit
    def compiled(cell, inputs, output):
        return output

    net = nn.ReLU()
    registrations = (net.register_forward_pre_hook, net.register_forward_hook, net.register_backward_pre_hook,
                     net.register_backward_hook, Tensor(np.ones(2, np.float32)).register_hook)
    for register in registrations:
        with pytest.raises(TypeError, match="Decorating hook function compiled with '@jit' is not supported"):
            register(compiled)
    assert net.__dict__.get("_hooks") is None or net.__dict__["_hooks"].empty()


def test_hook_registered_or_removed_after_a_compiled_gradient_takes_effect():
    """sporax compiles PyNative gradients per signature: a hook change must recompile them."""
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    grad = ms.grad(net)
    plain = grad(_x()).asnumpy()
    handle = net.register_backward_hook(lambda cell, grad_input, grad_output: (grad_input[0] * 10,))
    np.testing.assert_allclose(grad(_x()).asnumpy(), plain * 10)
    handle.remove()
    np.testing.assert_allclose(grad(_x()).asnumpy(), plain)


def test_backward_hooks_lift_state_batchnorm_and_dropout():
    """A hooked Cell that updates BatchNorm statistics and draws dropout masks, compiled and eager."""
    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 4)
            self.bn = nn.BatchNorm1d(4)
            self.drop = nn.Dropout(p=0.5)

        def construct(self, data):
            return self.drop(self.bn(self.fc(data)))

    data = Tensor(np.random.default_rng(0).standard_normal((8, 3)).astype(np.float32))
    values = {}
    for hooked in (False, True):
        ms.set_seed(5)  # the same dropout masks: MindSpore's Dropout takes its kernel's seeds when built
        block = Block().set_train()
        for parameter, value in zip(block.get_parameters(), values.get("init", [])):
            parameter.set_data(Tensor(value))
        values.setdefault("init", [p.asnumpy().copy() for p in block.get_parameters()])
        if hooked:
            block.register_backward_hook(lambda cell, grad_input, grad_output: None)
            block.register_backward_pre_hook(lambda cell, grad_output: None)

        def loss(data):
            return (block(data) ** 2).sum()

        grads = ms.grad(loss, grad_position=0, weights=block.trainable_params())(data)
        values[hooked] = ([g.asnumpy() for g in (grads[0],) + tuple(grads[1])],
                          block.bn.moving_mean.asnumpy().copy())
    for plain, hooked in zip(values[False][0], values[True][0]):
        np.testing.assert_allclose(hooked, plain, rtol=1e-6)
    np.testing.assert_allclose(values[True][1], values[False][1], rtol=1e-6)
    assert np.any(values[True][1] != 0)


# --- PyNative / GRAPH_MODE differences --------------------------------------------------------
def test_graph_mode_hooks_run_while_tracing_not_on_every_call():
    """MindSpore compiles hooks into the graph: their values apply and no Python side effect runs
    (the oracle counts 0 calls). sporax runs a child Cell's hooks while tracing (values apply,
    side effects at compile time only) and the top-level Cell's hooks around its compiled
    construct, on every call."""
    calls = {"child": 0, "top": 0}

    def hook(name):
        def run(cell, inputs, output):
            calls[name] += 1
            return output * 2
        return run

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")

        def construct(self, data):
            return self.fc(data)

    net = Net()
    net.fc.register_forward_hook(hook("child"))
    top = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    top.register_forward_hook(hook("top"))
    context.set_context(mode=context.GRAPH_MODE)
    try:
        outputs = [net(_x()).asnumpy() for _ in range(3)] + [top(_x()).asnumpy() for _ in range(3)]
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    for output in outputs:
        np.testing.assert_allclose(output, [[4.0, 4.0]])  # as MindSpore
    assert 1 <= calls["child"] <= 2  # traced, not called per step
    assert calls["top"] == 3


def _hook_backward_function():
    hook = ops.HookBackward(lambda gradients: (gradients[0] * 3,))

    def function(data):
        return (hook(data * 2) ** 2).sum()

    return function


def test_hookbackward_is_removed_in_graph_mode_with_a_warning():
    data = Tensor(np.array([1.0, 2.0], np.float32))
    context.set_context(mode=context.GRAPH_MODE)
    try:
        with pytest.warns(UserWarning, match="HookBackward does not work in GRAPH_MODE"):
            grads = ms.grad(_hook_backward_function())(data)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_allclose(grads.asnumpy(), [8.0, 16.0])


def test_hookbackward_is_removed_inside_jit_but_runs_in_a_pynative_grad():
    data = Tensor(np.array([1.0, 2.0], np.float32))
    function = _hook_backward_function()
    np.testing.assert_allclose(ms.grad(function)(data).asnumpy(), [24.0, 48.0])
    with pytest.warns(UserWarning, match="HookBackward"):
        np.testing.assert_allclose(ms.jit(ms.grad(function))(data).asnumpy(), [8.0, 16.0])


def _hooked_product_gradients(hook_fn, inputs):
    """Gradients w.r.t. x and y of sum(2 * HookBackward(hook_fn)(x * y)) (one input) or of
    sum(2 * a * b) for (a, b) = HookBackward(hook_fn)(x * y, x + y) (two inputs), x = [1, 2], y = [3, 4]."""
    hook = ops.HookBackward(hook_fn)
    if inputs == 1:
        def function(x, y):
            return (hook(x * y) * 2).sum()
    else:
        def function(x, y):
            first, second = hook(x * y, x + y)
            return (first * second * 2).sum()
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    return [gradient.asnumpy().tolist() for gradient in ms.grad(function, (0, 1))(x, y)]


def test_hookbackward_hook_results_as_mindspore_checks_them():
    # MindSpore 2.10: with one input the hook may return the new gradient itself or a 1-tuple of it;
    # with two, a tuple of two. Anything else is a TypeError, with these messages.
    assert _hooked_product_gradients(lambda g: g[0] * 5, 1) == [[30.0, 40.0], [10.0, 20.0]]
    assert _hooked_product_gradients(lambda g: (g[0] * 5,), 1) == [[30.0, 40.0], [10.0, 20.0]]
    assert _hooked_product_gradients(lambda g: (g[0] * 5, g[1] * 7), 2) == [[162.0, 352.0], [82.0, 232.0]]
    assert _hooked_product_gradients(lambda g: None, 2) == [[30.0, 64.0], [14.0, 40.0]]
    for hook_fn, inputs, message in [(lambda g: g * 5, 1, "should be a tensor but got tuple"),
                                     (lambda g: [g[0]], 1, "should be a tensor but got list"),
                                     (lambda g: 5, 1, "should be a tensor but got int"),
                                     (lambda g: g[0] * 5, 2, "The output gradient should be a tuple!"),
                                     (lambda g: (g[0],), 2, "The output gradient should be a tuple!")]:
        with pytest.raises(TypeError, match=message):
            _hooked_product_gradients(hook_fn, inputs)


def test_hookbackward_hook_runs_in_each_pass_of_a_second_order_gradient():
    # MindSpore 2.10: f(a) = sum(HookBackward(h)(a * a) * sin(a)), h triples the gradient and logs its sum.
    # First order: one call (sum of sin(a)); second order: one more, with the outer pass's gradient.
    calls = []

    def triple(gradients):
        calls.append(round(float(gradients[0].asnumpy().sum()), 4))
        return (gradients[0] * 3,)

    hook = ops.HookBackward(triple)

    def function(a):
        return (hook(a * a) * ops.sin(a)).sum()

    data = Tensor(np.array([0.5, 1.0], np.float32))
    np.testing.assert_allclose(ms.grad(function)(data).asnumpy(), [1.6577, 5.5891], rtol=1e-4)
    np.testing.assert_allclose(np.sin([0.5, 1.0]).sum(), calls[0], rtol=1e-4)
    np.testing.assert_allclose(ms.grad(lambda a: ms.grad(function)(a).sum())(data).asnumpy(), [8.0222, 10.691],
                               rtol=1e-4)
    assert calls == [1.3209, 1.3209, 1.4179]


@pytest.mark.parametrize("kind", ["forward_pre", "forward", "backward_pre", "backward"])
def test_hook_removing_a_hook_of_its_kind_while_they_run(kind):
    # MindSpore 2.10 (recorded) reads each kind's hooks from its live OrderedDict: hook i removing hook j
    # (remover, victim) raises Python's RuntimeError unless the remover is the last to run.
    def calls(count, remover, victim):
        log, handles = [], []
        net = nn.ReLU()

        def make(index):
            def hook(*args):
                log.append(index)
                if index == remover:
                    handles[victim].remove()
            return hook

        for index in range(count):
            handles.append(getattr(net, f"register_{kind}_hook")(make(index)))
        for _ in range(2):
            if kind.startswith("backward"):
                ms.grad(net)(_x())
            else:
                net(_x())
        return log

    assert calls(1, 0, 0) == [0]
    assert calls(2, 1, 0) == [0, 1, 1]
    for count, remover, victim in [(2, 0, 1), (2, 0, 0), (3, 1, 1)]:
        with pytest.raises(RuntimeError, match="OrderedDict mutated during iteration"):
            calls(count, remover, victim)


def _backward_hooked(hook, kind, two_outputs=False):
    """Gradient of sum(a * a) (or of sum of a * 2 and a * 3 for two outputs) at a = [1, 2], hooked."""
    class Square(nn.Cell):
        def construct(self, a):
            return (a * 2, a * 3) if two_outputs else a * a

    net = Square()
    getattr(net, f"register_{kind}_hook")(hook)

    def function(a):
        outputs = net(a)
        return outputs[0].sum() + outputs[1].sum() if two_outputs else outputs.sum()

    return ms.grad(function)(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy().tolist()


def test_backward_hook_results_checked_as_mindspore_checks_them():
    # MindSpore 2.10 (recorded): a Tensor or a tuple of Tensors of the very shape and dtype; a list, a None
    # inside the tuple, a broadcastable shape or another float dtype are errors, with these first words.
    assert _backward_hooked(lambda cell, grad_output: grad_output[0] * 3, "backward_pre") == [6.0, 12.0]
    assert _backward_hooked(lambda cell, grad_input, grad_output: grad_input[0] * 3, "backward") == [6.0, 12.0]
    wrong = {"list": (lambda g: [g[0] * 3], TypeError, "should be a tensor but got list"),
             "int": (lambda g: 3, TypeError, "should be a tensor but got int"),
             "nested": (lambda g: ((g[0],),), TypeError, "should be a tensor but got tuple"),
             "broadcast": (lambda g: (Tensor(np.ones(1, np.float32)),), ValueError,
                           r"should be Tensor shape:\[\[const vector\]\{2\}\]Float32, but got Tensor "
                           r"shape:\[\[const vector\]\{1\}\]Float32"),
             "float16": (lambda g: (Tensor(np.ones(2, np.float16)),), ValueError,
                         r"but got Tensor shape:\[\[const vector\]\{2\}\]Float16"),
             "int32": (lambda g: (Tensor(np.ones(2, np.int32)),), ValueError, r"\]Int32")}
    for name, (make, error, message) in wrong.items():
        with pytest.raises(error, match="^The output type of function: hook_backward_pre_grad " + ".*" + message):
            _backward_hooked(lambda cell, grad_output: make(grad_output), "backward_pre")
        with pytest.raises(error, match="^The output type of function: hook_backward_grad " + ".*" + message):
            _backward_hooked(lambda cell, grad_input, grad_output: make(grad_input), "backward")
    with pytest.raises(TypeError, match="should be a tensor but got NoneType"):
        _backward_hooked(lambda cell, grad_output: (None, grad_output[1]), "backward_pre", two_outputs=True)


def test_backward_hooks_see_none_for_an_output_no_gradient_reached():
    # MindSpore 2.10 (recorded): an unused output's or an integer output's gradient is None to both hooks;
    # a pre hook may give the unused output a gradient, which then flows (2 + 3 * 1 = 5).
    seen = []

    class Split(nn.Cell):
        def construct(self, a):
            return a * 2, a * 3, ops.cast(a, ms.int32)

    net = Split()
    net.register_backward_pre_hook(lambda cell, grad_output: seen.append([g is None for g in grad_output]))
    net.register_backward_hook(lambda cell, grad_input, grad_output: seen.append([g is None for g in grad_output]))
    data = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(ms.grad(lambda a: net(a)[0].sum())(data).asnumpy(), [2.0, 2.0])
    assert seen == [[False, True, True], [False, True, True]]
    replacing = Split()
    replacing.register_backward_pre_hook(lambda cell, grad_output: (grad_output[0], ops.ones(2, ms.float32), None))
    np.testing.assert_allclose(ms.grad(lambda a: replacing(a)[0].sum())(data).asnumpy(), [5.0, 5.0])


def test_backward_hooks_see_the_top_level_tensors_of_a_tuple_output():
    # MindSpore 2.10 (recorded): output (a*2, (a*3, a*4)) or ((a*3, a*4), a*2) weighted 1, 2, 3; the pre hook
    # multiplies what it sees by 10. It sees only a*2's gradient [1, 1]; the nested pair passes it by:
    # 10*2 + 2*3 + 3*4 = 38.
    def run(nested_first):
        seen = []

        class Split(nn.Cell):
            def construct(self, a):
                return ((a * 3, a * 4), a * 2) if nested_first else (a * 2, (a * 3, a * 4))

        def pre_hook(cell, grad_output):
            seen.append([g.asnumpy().tolist() for g in grad_output])
            return tuple(g * 10 for g in grad_output)

        net = Split()
        net.register_backward_pre_hook(pre_hook)
        net.register_backward_hook(lambda cell, grad_input, grad_output: seen.append(len(grad_output)))

        def function(a):
            outputs = net(a)
            single, pair = (outputs[1], outputs[0]) if nested_first else outputs
            return (single + pair[0] * 2 + pair[1] * 3).sum()

        gradient = ms.grad(function)(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy().tolist()
        return gradient, seen

    for nested_first in (False, True):
        assert run(nested_first) == ([38.0, 38.0], [[[1.0, 1.0]], 1])


@pytest.mark.parametrize("compiled", [True, False])
def test_backward_hook_sees_the_gradient_of_an_input_the_grad_does_not_differentiate(compiled):
    # MindSpore 2.10 (recorded): ms.grad(net, grad_position=0)(x, y) tracks y too, so grad_input holds its
    # gradient (x = [1, 2]); a Tensor the function makes itself has None. The hook's x10 reaches x only.
    seen = []

    def hook(cell, grad_input, grad_output):
        seen.append([None if g is None else g.asnumpy().tolist() for g in grad_input])
        return tuple(None if g is None else g * 10 for g in grad_input)

    class Product(nn.Cell):
        def construct(self, a, b):
            return a * b

    net = Product()
    net.register_backward_hook(hook)
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    set_pynative_jit(compiled)
    try:
        np.testing.assert_allclose(ms.grad(net, grad_position=0)(x, y).asnumpy(), [30.0, 40.0])
        np.testing.assert_allclose(ms.grad(lambda a: net(a, Tensor(np.array([5.0, 6.0], np.float32))).sum())(x)
                                   .asnumpy(), [50.0, 60.0])
    finally:
        set_pynative_jit(True)
    assert seen == [[[3.0, 4.0], [1.0, 2.0]], [[5.0, 6.0], None]]


def _gradients(values):
    return tuple(None if g is None else g.asnumpy().tolist() for g in values)


@pytest.mark.parametrize("compiled", [True, False])
def test_backward_hook_runs_again_with_none_in_a_gradient_of_a_gradient(compiled):
    # MindSpore 2.10 (recorded): Cube (a^3) with a backward hook, d/da sum(d/da sum(net(a))) at a = [1, 2]. The outer
    # pass calls the backward hook once more (the pre hook not) with grad_input (None,) and grad_output the outer
    # gradients reaching the inputs; what it returns there is ignored. A third order calls it a third time.
    seen = []

    class Cube(nn.Cell):
        def construct(self, a):
            return a * a * a

    class Square(nn.Cell):
        def construct(self, a, b):
            return a * a * b

    def hook(cell, grad_input, grad_output):
        seen.append((_gradients(grad_input), _gradients(grad_output)))
        return (grad_output[0] * 10,) if grad_input[0] is None else None

    net = Cube()
    net.register_backward_hook(hook)
    net.register_backward_pre_hook(lambda cell, grad_output: seen.append(_gradients(grad_output)))
    x = Tensor(np.array([1.0, 2.0], np.float32))
    first = ms.grad(lambda a: net(a).sum())
    set_pynative_jit(compiled)
    try:
        np.testing.assert_allclose(ms.grad(lambda a: first(a).sum())(x).asnumpy(), [6.0, 12.0])
        assert seen == [([1.0, 1.0],), (([3.0, 12.0],), ([1.0, 1.0],)), ((None,), ([6.0, 12.0],))]
        seen.clear()
        np.testing.assert_allclose(ms.grad(ms.grad(ms.grad(lambda a: net(a).sum())))(x).asnumpy(), [6.0, 6.0])
        assert [entry for entry in seen if len(entry) == 2] == [
            (([3.0, 12.0],), ([1.0, 1.0],)), ((None,), ([6.0, 12.0],)), ((None,), ([6.0, 6.0],))]
        # Two inputs, the inner gradient's first part differentiated: grad_output has the outer gradient of each.
        seen.clear()
        product = Square()
        product.register_backward_hook(hook)
        inner = ms.grad(lambda a, b: product(a, b).sum(), grad_position=(0, 1))
        y = Tensor(np.array([3.0, 5.0], np.float32))
        outer = ms.grad(lambda a, b: inner(a, b)[0].sum(), grad_position=(0, 1))(x, y)
    finally:
        set_pynative_jit(True)
    assert _gradients(outer) == ([6.0, 10.0], [2.0, 4.0])
    assert seen == [(([6.0, 20.0], [1.0, 4.0]), ([1.0, 1.0],)), ((None,), ([6.0, 10.0], [2.0, 4.0]))]


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("container", [list, dict])
def test_cell_with_a_list_or_dict_output_runs_only_the_inputs_side_of_its_backward_hooks(container, compiled):
    # MindSpore 2.10 (recorded): a Cell returning [a*2, a*3] (or {"p": .., "q": ..}), used as o[0] + 2*o[1]. The
    # forward hooks see the list/dict; the backward pre hook is not called; the backward hook sees grad_input
    # (None,) and grad_output the inputs' gradients (8 = 2 + 2*3), and what it returns is ignored.
    seen = []

    class Pair(nn.Cell):
        def construct(self, a, b):
            first, second = a * 2 * b, a * 3
            return [first, second] if container is list else {"p": first, "q": second}

    def hook(cell, grad_input, grad_output):
        seen.append((_gradients(grad_input), _gradients(grad_output)))
        return (grad_output[0] * 5,)

    net = Pair()
    net.register_forward_hook(lambda cell, inputs, output: seen.append(type(output).__name__))
    net.register_backward_pre_hook(lambda cell, grad_output: seen.append("pre"))
    net.register_backward_hook(hook)

    def function(a, b):
        first, second = net(a, b) if container is list else net(a, b).values()
        return (first + second * 2).sum()

    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.0, 1.0], np.float32))
    set_pynative_jit(compiled)
    try:
        np.testing.assert_allclose(ms.grad(function)(x, y).asnumpy(), [8.0, 8.0])
        np.testing.assert_allclose(ms.value_and_grad(function)(x, y)[0].asnumpy(), 24.0)
    finally:
        set_pynative_jit(True)
    assert seen == [container.__name__, ((None,), ([8.0, 8.0], [2.0, 4.0])),
                    container.__name__, ((None,), ([8.0, 8.0], [2.0, 4.0]))]


@pytest.mark.parametrize("compiled", [True, False])
def test_backward_hook_sees_none_for_an_input_the_output_does_not_use(compiled):
    # MindSpore 2.10 (recorded): Cell(a, b) -> a*2 (or a*2 + stop_gradient(b)): grad_input's b entry is None, not
    # zeros (b*0 keeps its zeros); a Tensor the hook returns there becomes b's gradient.
    seen = []

    class Unused(nn.Cell):
        def __init__(self, rest):
            super().__init__()
            self.rest = rest

        def construct(self, a, b):
            return a * 2 + self.rest(b)

    def hook(cell, grad_input, grad_output):
        seen.append(_gradients(grad_input))
        return (grad_input[0], Tensor(np.array([7.0, 7.0], np.float32))) if len(seen) == 1 else None

    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 5.0], np.float32))
    set_pynative_jit(compiled)
    try:
        gradients = []
        for rest in (lambda b: 0, ops.stop_gradient, lambda b: b * 0):
            net = Unused(rest)
            net.register_backward_hook(hook)
            gradients.append(_gradients(ms.grad(lambda a, b: net(a, b).sum(), grad_position=(0, 1))(x, y)))
    finally:
        set_pynative_jit(True)
    assert gradients == [([2.0, 2.0], [7.0, 7.0]), ([2.0, 2.0], [0.0, 0.0]), ([2.0, 2.0], [0.0, 0.0])]
    assert seen == [([2.0, 2.0], None), ([2.0, 2.0], None), ([2.0, 2.0], [0.0, 0.0])]


def test_forward_hooks_of_a_cell_with_a_custom_bprop_do_not_run():
    # MindSpore 2.10 (recorded): a Cell with bprop runs its forward pre-hooks (x3 here) and backward hooks, but not
    # its forward hooks, with or without a gradient (the hook's x2 is not applied: value 45, gradient 300).
    seen = []

    class Custom(nn.Cell):
        def construct(self, a):
            return a * a

        def bprop(self, a, out, dout):
            return (dout * 100,)

    net = Custom()
    net.register_forward_hook(lambda cell, inputs, output: (seen.append("forward"), output * 2)[1])
    net.register_forward_pre_hook(lambda cell, inputs: (seen.append("pre"), (inputs[0] * 3,))[1])
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(net(x).asnumpy(), [9.0, 36.0])
    value, gradient = ms.value_and_grad(lambda a: net(a).sum())(x)
    assert (value.asnumpy().tolist(), gradient.asnumpy().tolist(), seen) == (45.0, [300.0, 300.0], ["pre", "pre"])
