"""print and ops.print_ inside a function the user compiles (ms.jit, GRAPH mode) print as MindSpore's graph
Print operator does: one line per argument, tensors without commas, a 0-d tensor as its bare value, in
program order, on every call. Expected text recorded from MindSpore 2.10 (CPU)."""
import jax
import numpy as np

import sporax as ms
from sporax import ops

ORACLE = """\
Tensor(shape=[2], dtype=Float32, value=[ 1.50000000e+00  2.00000000e+00])
Tensor(shape=[2, 3, 2], dtype=Int64, value=
[[[ 0  1]
  [ 2  3]
  [ 4  5]]
 [[ 6  7]
  [ 8  9]
  [10 11]]])
2.5
Tensor(shape=[30], dtype=Int32, value=[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 \n\
 24 25 26 27 28 29])
Tensor(shape=[2], dtype=Float64, value=[ 1.00000000e-03  1.23456780e+04])
Tensor(shape=[1], dtype=Bool, value=[ True])
"""

SCALARS = "0.333333\n1e-08\n100000\n7\n1\n0.0999756\n0.333333\nTensor(shape=[2], dtype=Float16, value=[ 3.3325e-01  2.0000e+00])\n-2\n"


def _inputs():
    return (ms.tensor([1.5, 2.0], ms.float32), ms.tensor(np.arange(12).reshape(2, 3, 2), ms.int64),
            ms.tensor(2.5, ms.float32), ms.tensor(np.arange(30), ms.int32), ms.tensor([1e-3, 12345.678], ms.float64),
            ms.tensor([True]))


def test_print_in_jit_writes_mindspore_graph_text(capfd):
    @ms.jit
    def show(a, b, c, d, e, f):
        print(a, b, c, d, e, f)
        return a

    show(*_inputs())
    jax.effects_barrier()
    assert capfd.readouterr().out == ORACLE


def test_scalars_print_as_a_cpp_stream_writes_them(capfd):
    @ms.jit
    def show(*values):
        for value in values:
            print(value)
        return values[0]

    show(ms.tensor(1 / 3, ms.float32), ms.tensor(1e-8, ms.float32), ms.tensor(100000.0, ms.float32),
         ms.tensor(7, ms.int64), ms.tensor(True), ms.tensor(0.1, ms.float16), ms.tensor(1 / 3, ms.float64),
         ms.tensor([1 / 3, 2], ms.float16), ms.tensor(-2.0, ms.float32))
    jax.effects_barrier()
    assert capfd.readouterr().out == SCALARS


def test_prints_keep_program_order_and_run_on_every_call(capfd):
    # MindSpore 2.10 prints each argument on its own line (a list or tuple of numbers as (1, 2)), on every call
    @ms.jit
    def show(x, y):
        print(y)
        print("msg", x, 7, True, [1, 2], (3,))
        ops.print_("x:", x * 2)
        return x

    for _ in range(2):
        show(ms.tensor([1, 2, 3], ms.int32), ms.tensor(3, ms.int32))
    jax.effects_barrier()
    once = "3\nmsg\nTensor(shape=[3], dtype=Int32, value=[1 2 3])\n7\n1\n(1, 2)\n(3)\nx:\nTensor(shape=[3], dtype=Int32, value=[2 4 6])\n"
    assert capfd.readouterr().out == once * 2


def test_print_outside_a_compiled_function_keeps_the_pynative_text(capfd):
    ops.print_("x:", ms.tensor([1, 2], ms.int32))
    print(ms.tensor([1, 2], ms.int32))
    assert capfd.readouterr().out == "x:\nTensor(shape=[2], dtype=Int32, value= [1, 2])\n[1 2]\n"


def test_a_compiled_print_has_appeared_when_the_call_returns():
    # MindSpore's graph prints before the call returns: output redirected around the call holds it
    import contextlib
    import io

    @ms.jit
    def show(x):
        print(x * 2)
        return x

    for step in range(3):
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured):
            show(ms.tensor([step, step], ms.int32))
        assert captured.getvalue() == f"Tensor(shape=[2], dtype=Int32, value=[{2 * step} {2 * step}])\n"


# MindSpore 2.10 (CPU), the function below in ms.jit: a tensor its compiler knows (a constant, or folded from
# constants: x + x, f * 2, ops.ones, ops.arange, reshape) prints its values only, in parentheses; one computed
# from an input, from a tensor plus a Python number, or through exp or slicing prints as a Tensor; a tuple,
# list or dict holding more than numbers prints one line per element (a dict its values).
CONSTANTS = """\
a:
( 2,  4,  6,  8, 10)
b:
(1, 2, 3, 4, 5)
c:
(( 3.00000000e+00,  4.00000000e+00),
 ( 6.00000000e+00,  8.00000000e+00))
d:
((( 0,  1),
  ( 2,  3),
  ( 4,  5)),
 (( 6,  7),
  ( 8,  9),
  (10, 11)))
e:
( True, False)
( 1.5000e+00,  2.0000e+00)
f:
(( 1.00000000e+00,  1.00000000e+00),
 ( 1.00000000e+00,  1.00000000e+00))
(0, 1, 2, 3, 4)
g:
Tensor(shape=[5], dtype=Int64, value=[2 3 4 5 6])
Tensor(shape=[5], dtype=Int64, value=[2 3 4 5 6])
Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  1.00000000e+00])
( 1.50000000e+00,  2.00000000e+00,  3.00000000e+00,  4.00000000e+00)
Tensor(shape=[1, 2], dtype=Float32, value=
[[ 3.00000000e+00  4.00000000e+00]])
h:
Tensor(shape=[5], dtype=Int64, value=[1 1 1 1 1])
3
s
2.5
1
2
3
(1, 2, 3, 4, 5)
"""


def test_constant_tensors_print_as_mindspore_folds_them(capfd):
    @ms.jit
    def show(z):
        x = ms.Tensor(np.array([1, 2, 3, 4, 5]))
        f = ms.Tensor(np.array([[1.5, 2.0], [3.0, 4.0]], np.float32))
        print("a:", x + x)
        print("b:", x)
        print("c:", f * 2)
        print("d:", ms.Tensor(np.arange(12).reshape(2, 3, 2)))
        print("e:", ms.Tensor([True, False]), ms.Tensor(np.array([1.5, 2], np.float16)))
        print("f:", ops.ones((2, 2), ms.float32), ops.arange(5))
        print("g:", z + x, x + 1, ops.exp(f * 0)[0], f.reshape(4), f[1:])
        print("h:", (z, 3), ("s", 2.5), (1, (2, 3)), {"k": x})
        return z

    show(ms.Tensor(np.array([1, 1, 1, 1, 1])))
    jax.effects_barrier()
    assert capfd.readouterr().out == CONSTANTS
