"""A local read before its first assignment reads the module global of that name in compiled code,
as MindSpore 2.10's graph compiler does (the tutorial's `for i in x: z += i` on a global z); a local
assigned first never sees the global. Values recorded from MindSpore 2.10 (see each test)."""
import numpy as np
import pytest

import sporax as ms
from sporax import ops

z = ms.tensor(np.ones((2, 3)), ms.float32)
w = ms.tensor(2.0)
y = "a module global the function never reads"


def loop_reads_global():
    for i in (1, 2, 3):
        z += i  # noqa: F821 - a local read first: MindSpore reads the global z
    return z


def straight_reads_global(x):
    w += x  # noqa: F821
    return w


def stores_first(x):
    y = x * 2
    return y


def branch_only(x):
    if (x > 0).any():
        undefined_elsewhere = x + 1
    return undefined_elsewhere  # noqa: F821 - no global of that name: still an error


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_loop_reads_the_global_before_assigning(mode):
    global z
    z = ms.tensor(np.ones((2, 3)), ms.float32)
    ms.set_context(mode=mode)
    try:
        # MindSpore 2.10 prints [[7. 7. 7.] [7. 7. 7.]], then [[13. ...]] at the next call: `z += i` updates the
        # global Tensor in place (graph.control_flow.module_globals)
        compiled = ms.jit(loop_reads_global)
        np.testing.assert_allclose(compiled().asnumpy(), np.full((2, 3), 7.0))
        np.testing.assert_allclose(compiled().asnumpy(), np.full((2, 3), 13.0))
        np.testing.assert_allclose(z.asnumpy(), np.full((2, 3), 13.0))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_function_without_control_flow_reads_the_global():
    assert float(ms.jit(straight_reads_global)(ms.tensor(3.0))) == 5.0  # MindSpore 2.10: 5.0


def test_local_assigned_first_ignores_the_global():
    assert float(ms.jit(stores_first)(ms.tensor(1.5))) == 3.0


def test_name_without_a_global_is_still_unbound():
    with pytest.raises(UnboundLocalError, match="undefined_elsewhere"):
        ms.jit(branch_only)(ms.tensor([1.0, -1.0]))


def test_partial_fixes_keyword_arguments():
    def add(x, y):
        return x + y

    @ms.jit
    def partial_kw():
        add_ = ops.partial(add, x=2)
        return add_(y=3), add_(y=5)

    assert partial_kw() == (5, 7)  # MindSpore 2.10: (5, 7)
    assert ops.partial(add, 1)(y=4) == 5


GLOBAL_TABLE = {"a": ms.tensor([1, 2, 3]), "b": ms.tensor([4, 5, 6])}


def test_update_of_a_global_dict_changes_a_copy():
    # MindSpore 2.10: inside the graph the dict reads {'a': [14, 16, 18], ...}; the global keeps [1, 2, 3]
    # (sporax left a traced Tensor in the global before)
    @ms.jit
    def updated(t):
        before = GLOBAL_TABLE["a"]
        GLOBAL_TABLE.update({"a": t * 2})
        return before, GLOBAL_TABLE

    before, table = updated(ms.tensor([7, 8, 9]))
    np.testing.assert_array_equal(before.asnumpy(), [1, 2, 3])
    np.testing.assert_array_equal(table["a"].asnumpy(), [14, 16, 18])
    np.testing.assert_array_equal(GLOBAL_TABLE["a"].asnumpy(), [1, 2, 3])
    assert table is not GLOBAL_TABLE
