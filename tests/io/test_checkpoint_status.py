"""``mindspore.train.serialization.tensor_to_ms_type`` (keys and values recorded from MindSpore 2.10)."""
import sporax as ms
from sporax.core import dtype as mstype
from sporax.io import tensor_to_ms_type, tensor_to_np_type
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)


def test_names_map_to_mindspore_dtypes():
    # MindSpore 2.10: these 15 keys, in this order; 'str' -> mindspore.string, 'Int4' -> qint4x2
    assert list(tensor_to_ms_type) == ["Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64",
                                       "Float16", "Float32", "Float64", "Bool", "str", "BFloat16", "Int4"]
    assert tensor_to_ms_type["Float32"] is ms.float32 and tensor_to_ms_type["Bool"] is ms.bool_
    assert tensor_to_ms_type["BFloat16"] is ms.bfloat16 and tensor_to_ms_type["str"] is ms.string
    assert tensor_to_ms_type["Int4"] is ms.qint4x2


def test_agrees_with_tensor_to_np_type():
    for name, dtype in tensor_to_ms_type.items():
        if name not in ("str", "Int4"):
            assert mstype.dtype_to_nptype(dtype) is tensor_to_np_type(name), name


def test_served_under_the_mindspore_path(hook):
    from mindspore.train.serialization import tensor_to_ms_type as served
    assert served is tensor_to_ms_type
