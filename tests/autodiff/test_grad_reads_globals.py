"""A gradient reads the module globals of its function as MindSpore 2.10 does.

PyNative runs the function each call, so a changed global is seen by the next call, by the same
``grad`` object or a new one; GRAPH mode keeps the program a ``grad`` object compiled (a new ``grad``
object compiles afresh). Recorded on MindSpore 2.10: PyNative [1, 2, 3] both ways; GRAPH [1, 1, 1]
for one ``grad`` object, [1, 2, 3] for a new one each call.
"""
import numpy as np
import pytest

import sporax as ms

SCALE = 1.0


def scaled_sum(x):
    return (x * SCALE).sum()


def _gradients(make_each_call):
    global SCALE
    x = ms.Tensor(np.ones(3, np.float32))
    gradient, seen = ms.grad(scaled_sum), []
    for SCALE in (1.0, 2.0, 3.0):
        seen.append(float((ms.grad(scaled_sum) if make_each_call else gradient)(x)[0]))
    SCALE = 1.0
    return seen


@pytest.fixture
def mode():
    yield lambda name: ms.set_context(mode=name)
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_pynative_graph_parity_of_a_changed_global_read_by_one_grad_object(mode):
    mode(ms.PYNATIVE_MODE)
    assert _gradients(make_each_call=False) == [1.0, 2.0, 3.0]
    mode(ms.GRAPH_MODE)
    assert _gradients(make_each_call=False) == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("name", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_a_new_grad_object_sees_the_global_of_its_call(mode, name):
    mode(getattr(ms, name))
    assert _gradients(make_each_call=True) == [1.0, 2.0, 3.0]


def test_a_new_lambda_each_step_reads_the_loop_variable():
    x = ms.Tensor(np.ones(3, np.float32))
    seen = []
    for factor in (1.0, 2.0, 3.0):
        seen.append(float(ms.grad(lambda a: (a * factor).sum())(x)[0]))  # noqa: B023 (read each call)
    assert seen == [1.0, 2.0, 3.0]


def _weighted_sum_gradient(scale_of_step, steps, read_gradients=True):
    """value_and_grad of sum(x * w * scale) w.r.t. w, where ``scale`` is a closure variable the enclosing scope
    rebinds to a new Tensor after each call: (values, gradients, how many distinct scale ids) of the calls."""
    w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    x = ms.Tensor(np.array([1.0, 1.0], np.float32))
    scale = ms.Tensor(scale_of_step(0))

    def loss(inputs):
        return (inputs * w * scale).sum()

    grad_fn = ms.value_and_grad(loss, None, [w])
    values, gradients, ids = [], [], set()
    for step in range(steps):
        ids.add(id(scale))
        value, (gradient,) = grad_fn(x)
        values.append(float(value))
        if read_gradients:
            gradients.append(gradient.asnumpy())
        scale = ms.Tensor(scale_of_step(step + 1))  # noqa: F841 - read by loss through its closure
    return values, gradients, len(ids)


def test_pynative_reads_a_rebound_closure_variable_each_call():
    # MindSpore 2.10 PyNative: each call sees the Tensor the closure variable holds now (values 9, 20, 21, 22).
    def scale_of_step(step):
        return np.array([3.0, 3.0] if step == 0 else [9.0 + step, 5.0], np.float32)

    values, gradients, _ = _weighted_sum_gradient(scale_of_step, 4)
    for step, (value, gradient) in enumerate(zip(values, gradients)):
        assert value == float((np.array([1.0, 2.0]) * scale_of_step(step)).sum())
        np.testing.assert_array_equal(gradient, scale_of_step(step))
    assert values == [9.0, 20.0, 21.0, 22.0]


def test_a_rebound_variable_at_a_freed_objects_address_is_not_taken_for_it():
    # Rebinding frees the old Tensor: its successor often takes the same address (id) a few steps later (it did
    # here at step 7 of 16). A program key holding ids alone read that as "unchanged" and reused the program
    # compiled for the earlier value.
    def scale_of_step(step):
        return np.array([float(step), 1.0], np.float32)

    values, _, distinct_ids = _weighted_sum_gradient(scale_of_step, 24, read_gradients=False)
    assert values == [float(step) + 2.0 for step in range(24)], f"{24 - distinct_ids} ids reused"
