"""Dicts returned from compiled code keep insertion order and mixed key types (MindSpore 2.10 output)."""
import collections
import dataclasses
from typing import Optional

import numpy as np
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


class Plain(dict):
    pass


@dataclasses.dataclass
class Output(collections.OrderedDict):
    """A dataclass dict as mindone.transformers' ModelOutput: the set fields are its keys, read by index too."""
    first: Optional[Tensor] = None
    second: Optional[Tensor] = None
    third: Optional[Tensor] = None

    def __post_init__(self):
        for field in dataclasses.fields(self):
            if getattr(self, field.name) is not None:
                self[field.name] = getattr(self, field.name)

    def __getitem__(self, key):
        return tuple(self.values())[key] if isinstance(key, int) else super().__getitem__(key)


class Outputs(nn.Cell):
    def construct(self, x):
        factory = collections.defaultdict(list)
        factory["k"] = x + 1
        return (collections.OrderedDict([("z", x * 2), ("a", x)]), Plain(z=x * 2, a=x),
                [Output(first=x * 2, third=x)], factory)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_dict_subclass_outputs_keep_their_class(mode):
    # MindSpore 2.10, both modes: an OrderedDict, a dict subclass and a dataclass dict (a ModelOutput, which
    # mindone.transformers' models return) come back of their class, their attributes and index reads working.
    ms.set_context(mode=mode)
    ordered, plain, (output,), factory = Outputs()(Tensor(np.ones(2, np.float32)))
    assert type(ordered) is collections.OrderedDict and list(ordered) == ["z", "a"]
    assert type(plain) is Plain and list(plain) == ["z", "a"]
    assert type(output) is Output and list(output) == ["first", "third"] and output.second is None
    np.testing.assert_array_equal(output[0].asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(output.third.asnumpy(), [1.0, 1.0])
    np.testing.assert_array_equal(ordered["z"].asnumpy(), plain["z"].asnumpy())
    np.testing.assert_array_equal(factory["k"].asnumpy(), [2.0, 2.0])
    if mode == ms.GRAPH_MODE:  # MindSpore 2.10's graph returns a defaultdict as a plain dict, its factory gone
        assert type(factory) is dict
        with pytest.raises(KeyError):
            factory["missing"]
    else:
        assert type(factory) is collections.defaultdict and factory["missing"] == []


def test_ordered_dict_from_jit_keeps_its_class():
    @ms.jit
    def build(x):
        return collections.OrderedDict([("b", x), ("a", x * 3)])

    out = build(Tensor(np.ones(2, np.float32)))
    assert type(out) is collections.OrderedDict and list(out) == ["b", "a"]
    np.testing.assert_array_equal(out["a"].asnumpy(), [3.0, 3.0])


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_dict_subclass_aux_of_value_and_grad_keeps_its_class(mode):
    # MindSpore 2.10, both modes: loss 2.0, aux Plain {'a': [3, 3]} and Output(first=[3, 3]), gradient [2, 2].
    ms.set_context(mode=mode)

    def forward(x):
        return (x * x).sum(), (Plain(a=x * 3), Output(first=x * 3))

    (loss, (plain, output)), grad = ms.value_and_grad(forward, grad_position=0, has_aux=True)(
        Tensor(np.ones(2, np.float32)))
    assert type(plain) is Plain and type(output) is Output and output.second is None
    np.testing.assert_array_equal(plain["a"].asnumpy(), [3.0, 3.0])
    np.testing.assert_array_equal(output.first.asnumpy(), [3.0, 3.0])
    np.testing.assert_array_equal(grad.asnumpy(), [2.0, 2.0])
    assert float(loss.asnumpy()) == 2.0
