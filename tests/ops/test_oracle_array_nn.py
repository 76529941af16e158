"""Array, creation and nn ops against results recorded from MindSpore 2.10.

The cases and their recorded results are in ``tests/fixtures/ops_array_nn_mindspore.json``
(written by ``tests/fixtures/record_ops_array_nn.py`` with the real MindSpore): each case is an
expression evaluated here with sporax; dtype, shape and values (or the error type) must match.
"""
import builtins
import json
import pathlib

import numpy as np
import pytest

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "ops_array_nn_mindspore.json").read_text())
SCOPE = {"np": np, "ops": ops, "Tensor": Tensor, "mstype": mstype, "Parameter": Parameter}
exec(FIXTURE["setup"], SCOPE)


def _check(actual, expected, name):
    if "tensor" in expected:
        assert isinstance(actual, Tensor), f"{name}: expected a Tensor, got {type(actual).__name__}"
        assert str(actual.dtype) == expected["dtype"], f"{name}: dtype {actual.dtype} != {expected['dtype']}"
        assert list(actual.shape) == expected["shape"], f"{name}: shape {actual.shape} != {expected['shape']}"
        tolerance = 2e-3 if expected["dtype"] in ("Float16", "BFloat16") else 1e-5
        np.testing.assert_allclose(actual.asnumpy().astype(np.float64), np.asarray(expected["values"], np.float64),
                                   rtol=tolerance, atol=tolerance, err_msg=name)
    elif "sequence" in expected:
        assert isinstance(actual, (tuple, list)) and len(actual) == len(expected["items"]), name
        for index, (item, want) in enumerate(zip(actual, expected["items"])):
            _check(item, want, f"{name}[{index}]")
    else:
        assert type(actual).__name__ == expected["type"] and actual == expected["python"], \
            f"{name}: {actual!r} != {expected['python']!r}"


@pytest.mark.parametrize("name", sorted(FIXTURE["cases"]))
def test_matches_mindspore(name):
    case = FIXTURE["cases"][name]
    if "raises" in case:
        with pytest.raises(getattr(builtins, case["raises"])):
            eval(case["expr"], SCOPE)
        return
    _check(eval(case["expr"], SCOPE), case["result"], name)
