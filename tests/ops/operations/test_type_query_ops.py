"""TopTypeof: the outer MindSpore type of a value (expected types recorded from MindSpore 2.10)."""
import numpy as np
import pytest

import sporax as ms
from sporax.ops.operations import TopTypeof


@pytest.mark.parametrize("value, expected", [
    (ms.Tensor(np.ones(2, np.float32)), ms.tensor_type),
    (ms.Tensor(np.ones((2, 3), np.int32)), ms.tensor_type),  # element type and shape left out
    ((1, 2), ms.tuple_),
    ([1], ms.list_),
    (None, ms.type_none),
    (True, ms.bool_),
    (1.0, ms.float32),  # a Python float is Float32 in MindSpore's graphs
])
def test_top_type(value, expected):
    assert TopTypeof()(value) is expected


def test_any_python_int_is_the_bare_int_type():
    result = TopTypeof()(7)
    assert repr(result) == "mindspore.int" and result is TopTypeof()(2 ** 40)
    assert result != ms.int64  # the bare Int, not a width


def test_types_sporax_does_not_model_are_named():
    with pytest.raises(NotImplementedError, match="TopTypeof.*dict"):
        TopTypeof()({"a": 1})
    with pytest.raises(TypeError, match="TopTypeof"):
        TopTypeof()(object())


def test_served_under_mindspore_private_inner_ops_path():
    import sporax.compat
    sporax.compat.install()
    from mindspore.ops.operations._inner_ops import TopTypeof as from_inner_ops  # noqa: E402
    assert from_inner_ops is TopTypeof


def test_tensor_type_is_an_instance_of_tensor_type_class():
    # MindSpore 2.10: isinstance(TopTypeof()(Tensor([True, False])), mstype.TensorType) is True (also inside
    # ms.jit); repr 'mindspore.tensor', str 'Tensor'; TensorType() == tensor_type; TensorType(float32) has
    # repr 'mindspore.tensor[float32]', str 'Tensor[Float32]', equals another TensorType(float32), not tensor_type.
    found = TopTypeof()(ms.Tensor(np.array([True, False])))
    assert isinstance(found, ms.TensorType) and found is ms.tensor_type
    assert (repr(found), str(found)) == ("mindspore.tensor", "Tensor")
    assert ms.TensorType() == ms.tensor_type
    typed = ms.TensorType(ms.float32)
    assert (repr(typed), str(typed)) == ("mindspore.tensor[float32]", "Tensor[Float32]")
    assert typed == ms.TensorType(ms.float32) and typed != ms.tensor_type


def test_tensor_type_check_inside_jit_counts_a_bool_index_by_its_dims():
    # The index-dimension check of MindSpore's tests/st graph_syntax raise case: a bool Tensor index adds its
    # ndim, anything else 1 (MindSpore 2.10 raises IndexError for a 2-d bool index into 2-d data after a 0).
    @ms.jit
    def index_dims(index):
        dims = 0
        for item in (0, index):
            if isinstance(TopTypeof()(item), ms.TensorType) and item.dtype == ms.bool_:
                dims += item.ndim
            else:
                dims += 1
        return dims

    assert index_dims(ms.Tensor(np.ones((2, 2), np.bool_))) == 3
