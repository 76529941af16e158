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


@pytest.mark.parametrize("shape, dtype, expected", [
    ((), ms.float32, "Tensor(shape=[], dtype=Float32, value=<uninitialized>)"),
    ((2,), ms.int32, "Tensor(shape=[2], dtype=Int32, value=<uninitialized>)"),
    ((0,), ms.float32, "Tensor(shape=[0], dtype=Float32, value=<uninitialized>)"),
    ((1, 1, 2), ms.float16, "Tensor(shape=[1, 1, 2], dtype=Float16, value=\n<uninitialized>)")])
def test_lazy_tensors_below_rank_two_print_uninitialized_on_the_header_line(shape, dtype, expected):
    # recorded from MindSpore 2.10: str() of Tensor(shape=..., dtype=..., init=One())
    assert str(Tensor(shape=shape, dtype=dtype, init=One())) == expected


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


# --- tensors made from a NumPy buffer print NumPy's layout (recorded by
# tests/fixtures/core/record_numpy_backed_repr.py on MindSpore 2.10) --------------------------
def test_from_numpy_repr_uses_numpy_layout_until_computed_on():
    import sporax.dataset as ds
    from sporax import Tensor as T

    backed = T.from_numpy(np.array([0., 1.5], np.float32))
    assert repr(backed) == "Tensor(shape=[2], dtype=Float32, value= [0. , 1.5])"
    assert repr(T.from_numpy(np.arange(1200.).reshape(2, 600))) == (
        "Tensor(shape=[2, 600], dtype=Float64, value=\n"
        "[[0.000e+00, 1.000e+00, 2.000e+00, ..., 5.970e+02, 5.980e+02, 5.990e+02],\n"
        " [6.000e+02, 6.010e+02, 6.020e+02, ..., 1.197e+03, 1.198e+03, 1.199e+03]])")
    fixed = "Tensor(shape=[2], dtype=Float32, value= [ 0.00000000e+00,  1.50000000e+00])"
    assert repr(T(np.array([0., 1.5], np.float32))) == fixed
    assert repr(backed + 0) == fixed
    row = next(ds.NumpySlicesDataset(np.array([[True, False]]), shuffle=False).create_tuple_iterator(num_epochs=1))
    assert repr(row[0]) == "Tensor(shape=[2], dtype=Bool, value= [ True, False])"


def test_int64_asnumpy_prints_its_dtype_as_mindspore_arrays_do():
    from sporax import Tensor as T

    assert repr(T([1, 2]).asnumpy()) == "array([1, 2], dtype=int64)"
    assert repr((T([1, 2]) + 1).asnumpy()) == "array([2, 3], dtype=int64)"
    assert repr(np.array(T([1, 2]))) == "array([1, 2], dtype=int64)"
    assert T([1, 2]).asnumpy().dtype == np.int64
    assert repr(T([1, 2], ms.int32).asnumpy()) == "array([1, 2], dtype=int32)"


def test_dynamic_shape_placeholder_prints_no_value():
    # MindSpore 2.10 (Cell.get_inputs' example): repr of Tensor(shape=[3, None]) ends in "value=\n)";
    # str() raises numpy's ValueError "negative dimensions are not allowed".
    tensor = Tensor(shape=[3, None], dtype=ms.float32)
    assert repr(tensor) == "Tensor(shape=[3, -1], dtype=Float32, value=\n)"
    assert repr((tensor,)) == "(Tensor(shape=[3, -1], dtype=Float32, value=\n),)"
    with pytest.raises(ValueError, match="^negative dimensions are not allowed"):
        str(tensor)
