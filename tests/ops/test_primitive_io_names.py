"""Primitives' io names over every Primitive class of ``mindspore.ops``, against MindSpore 2.10's recording
(``fixtures/primitive_io_names_mindspore_2_10.json``: each class built with its default arguments)."""
import inspect
import json
from pathlib import Path

from sporax import ops
from sporax.ops import Primitive

RECORDED = json.loads((Path(__file__).parents[1] / "fixtures" / "primitive_io_names_mindspore_2_10.json")
                      .read_text())["classes"]
# One sporax class serves two MindSpore classes whose io names differ: MindSpore's deprecated TensorAdd, GatherV2 and
# FastGelu record names, the Add, Gather and FastGeLU they alias (sporax's one class) record none.
ALIASES = {"TensorAdd": "Add", "GatherV2": "Gather", "FastGelu": "FastGeLU"}


def test_io_names_are_mindspores_for_every_primitive_class():
    mismatched, checked = [], 0
    for name, recorded in sorted(RECORDED.items()):
        cls = getattr(ops, name, None)
        if not (inspect.isclass(cls) and issubclass(cls, Primitive)) or name in ALIASES:
            continue
        try:
            primitive = cls()
        except TypeError:  # it needs arguments here (MindSpore's recording built it with defaults)
            continue
        checked += 1
        if recorded is None:  # MindSpore keeps none in attrs (a generated sporax one may still offer input_names)
            if "input_names" in primitive.attrs:
                mismatched.append((name, primitive.attrs["input_names"], None))
            continue
        names = (primitive.attrs.get("input_names"), primitive.attrs.get("output_names"))
        if list(names) != recorded or primitive.input_names != recorded[0]:
            mismatched.append((name, names, recorded))
    assert not mismatched, mismatched
    assert checked > 470  # all but the aliases and 4 absent ones (MapCacheIdx, Pull, Push, _AllSwap) of 484


def test_an_aliased_class_keeps_its_target_io_names_and_a_user_subclass_its_own():
    assert ops.TensorAdd is ops.Add and "input_names" not in ops.TensorAdd().attrs
    assert ops.Cast().input_names == ["x", "dst_type"]  # MindSpore's names, not the op table's ``input``

    class Cast(Primitive):  # a user's Primitive named like MindSpore's records only what it declares
        def __init__(self):
            super().__init__()

    assert Cast().attrs == {}
