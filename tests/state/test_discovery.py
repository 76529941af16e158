"""Discovery of the Parameters a call may touch: Cells, closures, globals, containers, wrappers."""
import functools

import numpy as np

from sporax.autodiff import grad
from sporax.core.parameter import Parameter, ParameterTuple
from sporax.graph import jit
from sporax.nn.cell import Cell
from sporax.state import DiscoveryCache, discover, rng_state
from tests.state.helpers import Linear, MovingMean, add, mul, tensor

GLOBAL_WEIGHT = Parameter(tensor([1.0]), name="global_weight")


def names(discovered):
    return [getattr(state, "name", "<rng>") for state in discovered.states]


def test_rng_state_comes_first():
    discovered = discover(lambda: None)
    assert discovered.states[0] is rng_state()


def test_cell_tree_includes_non_trainable_parameters_and_cells():
    class Net(Cell):
        def __init__(self):
            super().__init__()
            self.linear = Linear(np.ones((2, 2)), np.zeros(2))
            self.norm = MovingMean(2)

    net = Net()
    discovered = discover(net)
    assert names(discovered)[1:] == ["linear.w", "linear.b", "norm.weight", "norm.moving_mean"]
    assert len(discovered.cells) == 3
    net.set_train()
    assert discovered.training_flags()[:3] == (True, True, True)


def test_a_deep_cell_tree_is_walked_once(monkeypatch):
    """Each Cell's attributes are read once, not once per ancestor (base listed 273 Cells for this chain of 13)."""
    from sporax.state import discovery

    class Block(Cell):
        def __init__(self, inner, index):
            super().__init__()
            self.inner = inner
            self.extra = [Parameter(tensor([float(index)]), name=f"extra{index}")]  # found through attributes only

    root = Linear(np.ones((1, 1)), np.zeros(1))
    for index in range(12):
        root = Block(root, index)
    read = []
    original = discovery._cells_of
    monkeypatch.setattr(discovery, "_cells_of", lambda cell: read.extend(original(cell)) or original(cell))
    discovered = discover(root)
    assert len(read) == 13  # the root's subtree, listed once
    assert len(discovered.cells) == 13
    extras = [f"extra{i}" for i in range(11, -1, -1)]
    assert names(discovered)[1:] == ["inner." * 12 + "w", "inner." * 12 + "b"] + extras


def test_function_closure_globals_defaults_and_partial():
    local = Parameter(tensor([2.0]), name="local")
    net = Linear(np.ones((1, 1)), np.zeros(1))
    holder = {"inside": Parameter(tensor([3.0]), name="in_dict")}

    def uses_everything(x, default=Parameter(tensor([4.0]), name="default")):
        return add(mul(x, local, GLOBAL_WEIGHT, default, holder["inside"]), net(x))

    discovered = discover(functools.partial(uses_everything))
    assert set(names(discovered)) >= {"local", "global_weight", "default", "in_dict", "w", "b"}


def test_optimizer_like_cell_parameter_tuples_are_found():
    class Optimizer(Cell):
        def __init__(self, params):
            super().__init__()
            self.parameters = ParameterTuple(params)
            self.moments = self.parameters.clone(prefix="moments", init="zeros")

    net = Linear(np.ones((1, 1)), np.zeros(1))
    optimizer = Optimizer(net.trainable_params())
    found = names(discover(optimizer))
    assert "moments.w" in found and "moments.b" in found and "w" in found


def test_grad_and_jit_wrappers_expose_what_they_reach():
    net = Linear(np.ones((1, 1)), np.zeros(1))
    grad_fn = grad(lambda x: net(x), None, net.trainable_params())
    jitted = jit(lambda x: grad_fn(x))

    def train_step(x):
        return jitted(x)

    assert {"w", "b"} <= set(names(discover(train_step)))


def test_cache_rewalks_when_a_referenced_object_changes():
    global SWAPPED
    SWAPPED = Parameter(tensor([1.0]), name="first")

    def reads():
        return SWAPPED

    cache = DiscoveryCache(reads)
    assert "first" in names(cache.get())
    same = cache.get()
    assert cache.get() is same
    SWAPPED = Parameter(tensor([1.0]), name="second")
    assert "second" in names(cache.get())
