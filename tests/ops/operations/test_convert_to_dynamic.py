"""``ConvertToDynamic`` (MindSpore's private ``_inner_ops``): the dynamic-shape hint passes its Tensor through.

Recorded on MindSpore 2.10 CPU: ``ConvertToDynamic(is_dynamic_rank=True)`` has attrs ``{'is_dynamic_rank': True,
'input_names': ['input'], 'output_names': ['output']}``; on a (2, 3) Float32 Tensor it returns the same values,
shape and dtype; ``grad(sum(ConvertToDynamic()(t) * t))`` is ``2 t``; an int input raises TypeError ("input[0]
should be Tensor"), a non-bool ``is_dynamic_rank`` TypeError. MindSpore's dynamic-shape gradient tests wrap every
input and output in it (sporax lacked it: the whole helper failed with AttributeError)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.ops.operations import ConvertToDynamic
from sporax.nn import Cell


class Marked(Cell):
    def __init__(self):
        super().__init__()
        self.mark = ConvertToDynamic(is_dynamic_rank=True)

    def construct(self, x):
        return self.mark(x) * x


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_values_and_gradient_pass_through(mode):
    x = np.arange(6).reshape(2, 3).astype(np.float32)
    ms.set_context(mode=mode)
    try:
        out = Marked()(Tensor(x))
        grad = ops.grad(Marked())(Tensor(x))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(out.asnumpy(), x * x)
    np.testing.assert_array_equal(grad.asnumpy(), 2 * x)
    marked = ConvertToDynamic()(Tensor(x))
    assert marked.dtype == ms.float32 and marked.shape == (2, 3)


def test_attributes_and_bad_inputs():
    marker = ConvertToDynamic(is_dynamic_rank=True)
    assert marker.attrs["is_dynamic_rank"] is True and ConvertToDynamic().attrs["is_dynamic_rank"] is False
    assert (marker.input_names, marker.output_names) == (["input"], ["output"])
    assert ConvertToDynamic().name == "ConvertToDynamic"
    with pytest.raises(TypeError, match="input\\[0\\] should be Tensor"):
        ConvertToDynamic()(3)
    with pytest.raises(TypeError, match="'is_dynamic_rank' should be 'bool'"):
        ConvertToDynamic(is_dynamic_rank=1)


def test_served_from_mindspore_private_inner_ops_only():
    import sporax.ops.operations as operations
    assert "ConvertToDynamic" not in operations.__all__ and not hasattr(ops, "ConvertToDynamic")
