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
