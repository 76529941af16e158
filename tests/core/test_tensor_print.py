"""Tensor printing: str/repr/format against strings recorded from MindSpore 2.10 (tensor_print_mindspore.json)."""
import json
from pathlib import Path

import jax
import numpy as np
import pytest

import sporax.ops  # noqa: F401  (installs the Tensor methods the expressions use)
from sporax.core import Tensor, dtype as ms
from sporax.core.initializer import Normal, One

CASES = json.loads((Path(__file__).parent.parent / "fixtures" / "tensor_print_mindspore.json").read_text())
# str() of these follows NumPy's own printing, which changed between NumPy 1.26 (the oracle's) and 2.x.
NUMPY_VERSION_DEPENDENT_STR = {"Tensor(np.float32(123456789.))", "Tensor(np.arange(1001.), ms.float16)"}


def _make(expression):
    a = np.arange(2000)
    a[1000] = -123456
    return eval(expression, {"np": np, "ms": ms, "Tensor": Tensor, "a": a})


@pytest.mark.parametrize("case", CASES, ids=[case["expr"] for case in CASES])
def test_repr_matches_mindspore(case):
    assert repr(_make(case["expr"])) == case["repr"]


@pytest.mark.parametrize("case", [c for c in CASES if c["expr"] not in NUMPY_VERSION_DEPENDENT_STR],
                         ids=[c["expr"] for c in CASES if c["expr"] not in NUMPY_VERSION_DEPENDENT_STR])
def test_str_matches_mindspore(case):
    tensor = _make(case["expr"])
    assert str(tensor) == case["str"]
    assert f"{tensor}" == case["str"]


def test_seed001_lazy_tensors_print_uninitialized():
    expected = "Tensor(shape=[2, 2], dtype=Float32, value=\n<uninitialized>)"
    for init in (One(), Normal()):
        tensor = Tensor(shape=(2, 2), dtype=ms.float32, init=init)
        assert str(tensor) == expected
        assert repr(tensor) == expected
    tensor = Tensor(shape=(2, 2), dtype=ms.float32, init=One())
    assert tensor.asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert str(tensor) == "[[1. 1.]\n [1. 1.]]"


def test_seed001_print_of_ones_like():
    assert f"Ones Tensor: \n {Tensor(np.array([1, 1, 1, 1]))} \n" == "Ones Tensor: \n [1 1 1 1] \n"


def test_format_spec():
    assert f"{Tensor(np.float32(1 / 3)):.3f}" == "0.333"
    with pytest.raises(TypeError, match="unsupported format string passed to Tensor.__format__"):
        format(Tensor([1.0, 2.0]), ".3f")


def test_traced_tensor_prints_without_error():
    seen = []

    @jax.jit
    def function(array):
        seen.append(repr(Tensor._wrap(array)))
        seen.append(str(Tensor._wrap(array)))
        return array

    function(np.ones(3, np.float32))
    assert seen[0].startswith("Tensor(shape=[3], dtype=Float32, value= <traced")
    assert seen[1] == seen[0]
