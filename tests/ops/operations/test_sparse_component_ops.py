"""MindSpore's sparse_ops Primitives on component Tensors (``sporax.ops.operations.sparse_component_ops``) against
outputs recorded from MindSpore 2.10 (tests/fixtures/record_sparse_components.py), through the MindSpore import
path; the op test table checks their entries against NumPy on other samples."""
import json
import os

import numpy as np
import pytest

from sporax import Tensor
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "sparse_components_mindspore.json")
with open(FIXTURE) as _handle:
    CASES = json.load(_handle)


@pytest.mark.parametrize("case", CASES, ids=[f"{case['name']}-{index}" for index, case in enumerate(CASES)])
def test_matches_mindspore(case, hook):
    from mindspore.ops.operations import sparse_ops

    arguments = [Tensor(np.array(value, dtype)) for dtype, value in case["inputs"]]
    outputs = getattr(sparse_ops, case["name"])(**case["attrs"])(*arguments)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    assert len(outputs) == len(case["outputs"])
    for output, (dtype, expected) in zip(outputs, case["outputs"]):
        assert output.asnumpy().dtype == np.dtype(dtype), case["name"]
        np.testing.assert_allclose(output.asnumpy(), np.array(expected, dtype), rtol=1e-6, err_msg=case["name"])


def test_the_module_also_serves_the_exported_sparse_primitives(hook):
    from mindspore.ops.operations.sparse_ops import SparseReorder, SparseToDense

    import sporax.ops.operations as P
    assert SparseReorder is P.SparseReorder and SparseToDense is P.SparseToDense


def test_errors_name_the_primitive():
    from sporax.ops.operations.sparse_component_ops import SparseDenseCwiseMul, SparseToDenseV2

    indices = Tensor(np.array([[0, 1], [0, 1]], np.int64))
    with pytest.raises(ValueError, match="For 'SparseToDenseV2', 'indices' must not repeat an index"):
        SparseToDenseV2()(indices, (2, 2), Tensor([1.0, 2.0]), Tensor(0.0))
    assert SparseToDenseV2(validate_indices=False)(indices, (2, 2), Tensor([1.0, 2.0]), Tensor(0.0)).shape == (2, 2)
    with pytest.raises(ValueError, match="For 'SparseToDenseV2', every index must lie inside output_shape"):
        SparseToDenseV2()(Tensor(np.array([[0, 5]], np.int64)), (2, 2), Tensor([1.0]), Tensor(0.0))
    with pytest.raises(ValueError, match="For 'SparseDenseCwiseMul', 'x2' of shape \\(3,\\) must broadcast"):
        SparseDenseCwiseMul()(indices, Tensor([1.0, 2.0]), (2, 2), Tensor([1.0, 2.0, 3.0]))
