"""Primitives MindSpore 2.10 serves only from its submodules (``array_ops``, ``image_ops``, ``nn_ops``, ``sparse_ops``,
``_inner_ops``, ``_embedding_cache_ops``, ``_grad_ops``) against values recorded from it on CPU
(tests/fixtures/private_primitives/record.py): outputs, and the Parameters an update leaves behind."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor
from sporax.ops import operations
from sporax.ops.operations import grad_ops, sparse_component_ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "private_primitives", "mindspore.json")
RECORDS = json.load(open(FIXTURE))
MODULES = {"_grad_ops": grad_ops, "sparse_ops": sparse_component_ops}  # the rest: sporax.ops.operations


def decode(value, as_parameter=False):
    if value is None or isinstance(value, int):
        return value
    if "tuple" in value:
        return tuple(decode(item) for item in value["tuple"])
    tensor = Tensor(np.array(value["values"], value["dtype"]).reshape(value["shape"]))
    return Parameter(tensor) if as_parameter else tensor


def expected(value):
    return np.array(value["values"], value["dtype"]).reshape(value["shape"])


@pytest.mark.parametrize("record", RECORDS, ids=[f"{r['name']}-{i}" for i, r in enumerate(RECORDS)])
def test_matches_mindspore(record):
    init = {key: getattr(ms, value) if key == "Tsplits" else value for key, value in record["init"].items()}
    primitive = getattr(MODULES.get(record["module"], operations), record["name"])(**init)
    arguments = [decode(value, index in record["parameters"]) for index, value in enumerate(record["inputs"])]
    outputs = primitive(*arguments)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    assert len(outputs) == len(record["outputs"])
    for got, want in zip(outputs, record["outputs"]):
        assert got.asnumpy().dtype == np.dtype(want["dtype"])
        np.testing.assert_allclose(got.asnumpy(), expected(want), rtol=1e-5, atol=1e-6)
    for index, want in zip(record["parameters"], record["after"]):
        np.testing.assert_allclose(arguments[index].asnumpy(), expected(want), rtol=1e-5, atol=1e-6)


def test_private_primitives_stay_out_of_ops():
    # MindSpore serves them from its submodules only: ``mindspore.ops`` has none of them
    for name in ("DynamicStitch", "PadAndShift", "ResizeV2", "TensorScatterElementsExt", "SparseApplyAdagradDA",
                 "CTCLossV2Grad"):
        assert hasattr(operations, name) and not hasattr(ms.ops, name)


def test_resize_v2_refusals_name_the_setting():
    with pytest.raises(ValueError, match="For 'ResizeV2', coordinate_transformation_mode must be 'half_pixel'"):
        operations.ResizeV2("align_corners", "nearest")
    line = Tensor(np.zeros((1, 1, 2, 4), np.float32))
    empty = Tensor(np.zeros((0,), np.float32))
    with pytest.raises(ValueError, match=r"sizes\[2\] must be 1"):
        operations.ResizeV2(mode="linear")(line, empty, empty, Tensor(np.array([1, 1, 2, 8], np.int64)))


def test_dynamic_stitch_refuses_non_int32_indices():
    with pytest.raises(TypeError, match="For 'DynamicStitch', 'indices\\[0\\]' must be an Int32 Tensor"):
        operations.DynamicStitch()((Tensor(np.array([0, 1], np.int64)),), (Tensor(np.array([1.0, 2.0])),))
