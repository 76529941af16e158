"""Fused Ascend-only Primitives import as in MindSpore 2.10 and refuse a call with a RuntimeError subclass.

MindSpore 2.10 on CPU raises RuntimeError ("The kernel DynamicQuantExt unregistered") for these.
"""
import inspect

import pytest

import sporax.ops.operations as P
from sporax.ops.operations import ascend_fused_ops


def test_signatures_are_mindspore_2_10s():
    assert str(inspect.signature(P.DynamicQuantExt.__call__)) == "(self, x, smooth_scales=None)"
    assert str(inspect.signature(P.QuantBatchMatmul.__init__)) == (
        "(self, transpose_x1=False, transpose_x2=False, dtype=None)")
    assert P.QuantBatchMatmul(transpose_x2=True).transpose_x2 is True


@pytest.mark.parametrize("name", ascend_fused_ops.__all__)
def test_a_call_raises_naming_the_primitive(name):
    primitive = getattr(P, name)()
    assert primitive.name == name
    with pytest.raises(RuntimeError, match=f"{name}: .*Ascend only") as caught:
        primitive(None)
    assert isinstance(caught.value, NotImplementedError)
