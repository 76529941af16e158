"""An f-string of a tensor being compiled, printed in graph mode, writes the run-time values as MindSpore 2.10
does (its JIT Fallback runs the print in Python): each tensor as NumPy writes it, format specs ignored, the
print's arguments on one line. Expected text recorded from MindSpore 2.10 (CPU)."""
import jax
import numpy as np

import sporax as ms
from sporax import Tensor, nn

ORACLE = """\
value [1. 2.]
sum 3.0 int 3 m [[0 1]
 [2 3]]!
repr [1. 2.]
plain 3.0
"""


def test_fstring_of_traced_tensors_prints_run_time_values(capfd):
    @ms.jit
    def show(x, y, z):
        s = x.sum()
        print(f"value {x}")
        print(f"sum {s} int {y} m {z}!")
        print(f"repr {x!r}")
        print("plain", f"{s:.2f}")
        return x

    show(Tensor([1.0, 2.0]), Tensor(3), Tensor(np.arange(4).reshape(2, 2)))
    jax.effects_barrier()
    assert capfd.readouterr().out == ORACLE
    show(Tensor([5.0, 6.0]), Tensor(4), Tensor(np.zeros((2, 2), np.int64)))  # every call, its own values
    jax.effects_barrier()
    assert capfd.readouterr().out.splitlines()[:2] == ["value [5. 6.]", "sum 11.0 int 4 m [[0 0]"]


class Loss(nn.Cell):
    def construct(self, x):
        loss = (x * x).mean()
        print(f"loss: {loss}")
        return loss


def test_fstring_print_in_a_graph_mode_cell(capfd):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        Loss()(Tensor([1.0, 3.0]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    jax.effects_barrier()
    assert capfd.readouterr().out == "loss: 5.0\n"


def test_fstring_of_known_values_formats_as_str_dropping_specs():
    @ms.jit
    def text(x):
        return f"{(1, (2,), [3, 'q'])}|{None}|{True}|{1.5:.3f}|{'s'!r}|{x.shape[0]}"

    @ms.jit
    def template(x):
        return "{:.3f}|{!r}|{:>3}".format(1.5, "s", x.shape[0])

    # MindSpore 2.10 (PyNative and GRAPH_MODE): each value as str(), its format spec and conversion dropped;
    # str.format on a literal template applies them, as Python does
    assert text(Tensor(np.ones(3))) == "(1, (2,), [3, 'q'])|None|True|1.5|s|3"
    assert template(Tensor(np.ones(3))) == "1.500|'s'|  3"


STR_FORMAT_ORACLE = """\
step 3: y=[3. 4.] ('a')
[3. 4.]-[3. 4.]
x is [[2 4]
 [6 8]]
"""


class Doubled(nn.Cell):
    def construct(self, x):
        x = x + x
        print('x is {}'.format(x))
        return x - 1


def test_str_format_of_traced_tensors_prints_run_time_values(capfd):
    """``'...'.format(tensor)`` on a literal template is an f-string for MindSpore's graph: automatic and
    numbered fields, a conversion, a Python value beside the tensor (text recorded from MindSpore 2.10)."""
    @ms.jit
    def show(x):
        y = x * 2
        print('step {}: y={} ({!r})'.format(3, y, 'a'))
        print('{0}-{0}'.format(y))
        return y

    show(Tensor(np.array([1.5, 2.0], np.float32)))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = Doubled()(Tensor([[1, 2], [3, 4]]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    jax.effects_barrier()
    assert capfd.readouterr().out == STR_FORMAT_ORACLE
    np.testing.assert_array_equal(out.asnumpy(), [[1, 3], [5, 7]])
