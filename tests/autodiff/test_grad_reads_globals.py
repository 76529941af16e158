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
