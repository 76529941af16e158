"""A PyNative gradient sees what its function reads from outside its arguments as it is at each call, also
through the helpers it calls (issue 23 point 2): a helper's closure variable or global, a module attribute,
a Cell attribute (a number or a Tensor), an object's attribute, a list or dict element. MindSpore 2.10 runs
the Python again on each call; a compiled program of the first call baked the first value in.

Recorded on MindSpore 2.10 (PyNative, ``value_and_grad(f, None, [w])`` with x = [1, 2], w = [1, 1]; each
row one call after rebinding): the values and gradients below; NumPy gives the same (``_expected``).
"""
import numpy as np

import sporax as ms
from sporax import nn
from tests.autodiff import _rebound_settings

X = np.array([1.0, 2.0], np.float32)


def _calls(gradient, rebind, steps):
    """(value, gradient) of each call, after ``rebind(step)``."""
    x = ms.Tensor(X)
    seen = []
    for step in steps:
        rebind(step)
        value, gradients = gradient(x)
        gradients = gradients[0] if isinstance(gradients, tuple) else gradients
        seen.append((float(value), gradients.asnumpy().tolist()))
    return seen


def _expected(scales):
    """value and gradient w.r.t. w of sum(x * w * scale) at w = 1."""
    return [(float((X * np.asarray(scale)).sum()), (X * np.asarray(scale, np.float32)).tolist()) for scale in scales]


def _weight():
    return ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")


def test_a_helper_reads_a_dict_element_of_its_closure():
    w = _weight()
    box = {"scale": None}

    def make_helper():
        def helper(a):
            return a * box["scale"]
        return helper

    helper = make_helper()

    def loss(a):
        return (helper(a) * w).sum()

    def rebind(step):
        box["scale"] = ms.Tensor(np.full(2, step, np.float32))

    seen = _calls(ms.value_and_grad(loss, None, [w]), rebind, (2.0, 3.0, 4.0))
    assert seen == [(6.0, [2.0, 4.0]), (9.0, [3.0, 6.0]), (12.0, [4.0, 8.0])] == _expected([2.0, 3.0, 4.0])


def test_a_helper_reads_a_rebound_tensor_in_its_enclosing_scope():
    w = _weight()
    scale = ms.Tensor(np.array([2.0, 2.0], np.float32))

    def helper(a):
        return a * scale

    def loss(a):
        return (helper(a) * w).sum()

    gradient, seen = ms.value_and_grad(loss, None, [w]), []
    for step in (2.0, 3.0, 4.0):
        value, (grad_w,) = gradient(ms.Tensor(X))
        seen.append((float(value), grad_w.asnumpy().tolist()))
        scale = ms.Tensor(np.full(2, step + 1, np.float32))  # noqa: F841 - read by helper through its closure
    assert seen == [(6.0, [2.0, 4.0]), (9.0, [3.0, 6.0]), (12.0, [4.0, 8.0])]


HELPER_SCALE = 1.0


def _global_helper(a):
    return a * HELPER_SCALE


def test_a_helper_reads_a_rebound_global():
    w = _weight()

    def rebind(step):
        global HELPER_SCALE
        HELPER_SCALE = step

    try:
        seen = _calls(ms.value_and_grad(lambda a: (_global_helper(a) * w).sum(), None, [w]), rebind, (1.0, 2.0, 3.0))
    finally:
        rebind(1.0)
    assert seen == [(3.0, [1.0, 2.0]), (6.0, [2.0, 4.0]), (9.0, [3.0, 6.0])] == _expected([1.0, 2.0, 3.0])


def test_a_module_attribute_rebound_between_calls():
    w = _weight()

    def rebind(step):
        _rebound_settings.FACTOR = step

    try:
        seen = _calls(ms.value_and_grad(lambda a: (a * _rebound_settings.FACTOR * w).sum(), None, [w]), rebind,
                      (1.0, 2.0, 3.0))
    finally:
        rebind(1.0)
    assert seen == [(3.0, [1.0, 2.0]), (6.0, [2.0, 4.0]), (9.0, [3.0, 6.0])]


class _Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        self.k = 1.0
        self.t = ms.Tensor(np.ones(2, np.float32))

    def construct(self, a):
        return (a * self.w * self.k * self.t).sum()


def test_cell_attributes_set_between_calls():
    net = _Scaled()
    gradient = ms.value_and_grad(net, None, net.trainable_params())
    numbers = _calls(gradient, lambda step: setattr(net, "k", step), (1.0, 2.0, 3.0))
    tensors = _calls(gradient, lambda step: setattr(net, "t", ms.Tensor(np.array([step, 5.0], np.float32))),
                     (1.0, 2.0, 3.0))
    assert numbers == [(3.0, [1.0, 2.0]), (6.0, [2.0, 4.0]), (9.0, [3.0, 6.0])]
    assert tensors == [(33.0, [3.0, 30.0]), (36.0, [6.0, 30.0]), (39.0, [9.0, 30.0])]
    assert tensors == _expected([[3.0, 15.0], [6.0, 15.0], [9.0, 15.0]])  # k = 3 from the first loop
    # the Cell called from a function: 2 * sum(x * w * k * t) with t = [3, 5]
    twice = ms.value_and_grad(lambda a: net(a) * 2, None, net.trainable_params())
    assert _calls(twice, lambda step: setattr(net, "k", step), (4.0, 5.0)) == [(104.0, [24.0, 80.0]),
                                                                            (130.0, [30.0, 100.0])]


def test_list_and_dict_elements_replaced_and_object_attributes():
    w = _weight()
    tensors, numbers = [ms.Tensor(np.ones(2, np.float32))], {"s": 1.0}

    class Holder:
        s = 1.0

        def apply(self, a):
            return a * self.s

    holder = Holder()
    by_list = ms.value_and_grad(lambda a: (a * tensors[0] * w).sum(), None, [w])
    by_dict = ms.value_and_grad(lambda a: (a * numbers["s"] * w).sum(), None, [w])
    by_method = ms.value_and_grad(lambda a: (holder.apply(a) * w).sum(), None, [w])
    steps = (1.0, 2.0, 3.0)
    assert _calls(by_list, lambda step: tensors.__setitem__(0, ms.Tensor(np.array([step, 3.0], np.float32))),
                  steps) == [(7.0, [1.0, 6.0]), (8.0, [2.0, 6.0]), (9.0, [3.0, 6.0])]
    assert _calls(by_dict, lambda step: numbers.__setitem__("s", step), steps) == _expected(steps)
    assert _calls(by_method, lambda step: setattr(holder, "s", step), steps) == _expected(steps)


def test_python_side_effects_run_on_every_call():
    # MindSpore 2.10 runs the Python on each call: 3 appends for 3 calls; a counter the function increments
    # gives 1, 2, 3 (a Cell attribute: 1, 2). The gradient runs eagerly once a trace is seen writing them.
    w, log, count = _weight(), [], [0]

    def logged(a):
        log.append(1)
        return (a * w).sum()

    def counted(a):
        count[0] += 1
        return (a * count[0] * w).sum()

    class Counting(nn.Cell):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def construct(self, a):
            self.calls += 1
            return (a * self.calls).sum()

    def kept(a):
        log.append(a * 2)  # MindSpore 2.10: every call's real [2., 4.] (recorded), the first call's too
        return (a * a).sum()

    net = Counting()
    for _ in range(3):
        ms.grad(kept)(ms.Tensor(X))
    assert [item.asnumpy().tolist() for item in log] == [(X * 2).tolist()] * 3
    log.clear()
    logged_gradient = ms.value_and_grad(logged, None, [w])
    assert [float(logged_gradient(ms.Tensor(X))[0]) for _ in range(3)] == [3.0, 3.0, 3.0] and len(log) == 3
    counted_gradient = ms.value_and_grad(counted, None, [w])
    assert _calls(counted_gradient, lambda step: None, range(4)) == _expected([1, 2, 3, 4])
    assert sum(len(group.programs) for group in counted_gradient._cache._groups.values()) == 2  # not one a call
    net_gradient = ms.grad(net)
    assert [net_gradient(ms.Tensor(X)).asnumpy().tolist() for _ in range(3)] == [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    assert net.calls == 3


def test_a_key_that_moves_every_call_keeps_a_bounded_number_of_programs(monkeypatch):
    from sporax.state import program_cache

    monkeypatch.setattr(program_cache, "MAX_PROGRAMS", 3)
    w, scales = _weight(), [1.0]
    gradient = ms.value_and_grad(lambda a: (a * scales[0] * w).sum(), None, [w])
    steps = (1.0, 2.0, 3.0, 4.0, 5.0, 1.0)
    assert _calls(gradient, lambda step: scales.__setitem__(0, step), steps) == _expected(steps)
    assert max(len(group.programs) for group in gradient._cache._groups.values()) == 3
