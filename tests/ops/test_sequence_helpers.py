"""make_range, tuple_len, ScalarCast, add_flags, Symbol against MindSpore 2.10 (tests/fixtures/api/tier2.json)."""
import json
import os

import pytest

import sporax as ms
from sporax import ops
from sporax.ops import functional as F
from sporax.ops import operations as P

with open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "api", "tier2.json")) as _f:
    ORACLE = json.load(_f)


def outcome(function, *args, **kwargs):
    try:
        return ["ok", repr(function(*args, **kwargs))]
    except Exception as error:
        return [type(error).__name__]


@pytest.mark.parametrize("args, expected", ORACLE["make_range"])
def test_make_range(args, expected):
    assert outcome(ops.make_range, *args) == expected
    assert F.make_range is ops.make_range


def test_tuple_len():
    assert [outcome(ops.tuple_len, (1, 2, 3)), outcome(F.tuple_len, [1, 2])] == ORACLE["tuple_len"]


@pytest.mark.parametrize("value, type_name, expected", ORACLE["scalar_cast"])
def test_scalar_cast(value, type_name, expected):
    assert outcome(P.ScalarCast(), value, getattr(ms, type_name)) == expected


@pytest.mark.parametrize("kwargs, expected", ORACLE["symbol"])
def test_symbol(kwargs, expected):
    got = outcome(lambda **k: ms.Symbol(**k).to_dict(), **kwargs)
    assert got[0] == expected[0]
    if got[0] == "ok":
        assert got[1].replace(" ", "") == expected[1].replace(" ", "")


def test_symbol_in_tensor_shape_is_dynamic():
    placeholder = ms.Tensor(shape=[ms.Symbol(max=8), 3], dtype=ms.float32)
    assert placeholder.shape == (-1, 3)
    assert "id" in ms.Symbol(unique=True).to_dict()


def test_add_flags():
    def function(x):
        return x

    assert ops.add_flags(function, reusing=True) is function
    ops.add_flags(flag=1)(function)
    assert function._func_graph_flags == {"reusing": True, "flag": 1}
    from sporax.ops import composite

    assert composite.add_flags is ops.add_flags
