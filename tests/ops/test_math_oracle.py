"""Result dtypes and shapes of the math ops match what MindSpore 2.10 printed for the same calls.

The fixture (``tests/fixtures/ops_math_mindspore.json``, recorded by
``tests/fixtures/record_ops_math.py``) holds one row per (expression, input dtype); rows where
MindSpore raised are null and skipped here (sporax computes Int inputs of transcendental
functions in Float32 where MindSpore's CPU kernels are missing; the inverse trigonometric functions, which MindSpore
infers as Int results, refuse them: tests/ops/test_dtype_refusals.py).

Each expression runs under ``jax.eval_shape``: it is traced, not compiled, so the whole table
is cheap, and every op is checked to work on tracers.
"""
import json
import pathlib

import jax
import numpy as np
import pytest

import sporax
from sporax import Tensor, ops

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "ops_math_mindspore.json"
PROBES = [p for p in json.loads(FIXTURE.read_text())["probes"] if p["mindspore"] is not None]

def describe(result):
    if isinstance(result, (tuple, list)):
        return [describe(item) for item in result]
    if isinstance(result, Tensor):
        return f"{result.dtype}{tuple(result.shape)}"  # MindSpore printed the shape as a tuple
    return repr(result)


def _shape_text(text):
    return text.replace(" ", "")


@pytest.mark.parametrize("probe", PROBES, ids=[f"{p['code']}-{p['dtype']}" for p in PROBES])
def test_matches_mindspore(probe):
    x = Tensor(np.array([[1, 0, 2], [3, 1, 1]]), getattr(sporax, probe["dtype"]))

    def run(array):
        return eval(probe["code"], {"ops": ops, "ms": sporax, "x": Tensor._wrap(array),
                                    "__builtins__": {}})

    result = jax.eval_shape(run, x._value)
    got, want = describe(result), probe["mindspore"]
    if isinstance(want, list):
        assert [_shape_text(g) for g in got] == [_shape_text(w) for w in want]
    else:
        assert _shape_text(got) == _shape_text(want)
