"""Dicts returned from compiled code keep insertion order and mixed key types (MindSpore 2.10 output)."""
import pytest

import sporax as ms
from sporax import Tensor, nn


@pytest.fixture(autouse=True)
def pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class Merge(nn.Cell):
    def construct(self, kwarg):
        return {**kwarg, "a": 3, ("d", "e"): 4, "z": kwarg["b"] * 2}


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_dict_output_keeps_order_and_mixed_keys(mode):
    ms.set_context(mode=mode)
    out = Merge()({"a": 1, "b": Tensor(2)})
    assert list(out.keys()) == ["a", "b", ("d", "e"), "z"]  # MindSpore 2.10: the same order
    assert out["a"] == 3 and out[("d", "e")] == 4
    assert out["b"].asnumpy() == 2 and out["z"].asnumpy() == 4


def test_nested_dicts_in_jit_outputs_keep_order():
    @ms.jit
    def build(x):
        return {"b": x, "a": (x, {"y": 1, "x": x + 1})}

    out = build(Tensor(1.0))
    assert list(out) == ["b", "a"]
    assert list(out["a"][1]) == ["y", "x"]
    assert out["a"][1]["y"] == 1 and float(out["a"][1]["x"].asnumpy()) == 2.0
