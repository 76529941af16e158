"""The CSR Primitives of ``mindspore.ops.operations._csr_ops`` (``sporax.ops.operations.csr_ops``): each gives
its op-table entry's values (the op test table checks the entries against NumPy; these classes are not
exported by ``ops``, so it does not reach them), and the private MindSpore path imports them."""
import numpy as np
import pytest

from sporax import Tensor
from sporax.ops.op_table import PRIMITIVES
from sporax.ops.operations import csr_ops
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)

NAMES = ["COO2CSR", "CSR2COO", "CSRGather", "CSRMul", "CSRDiv", "CSRMV", "CSRReduceSum", "CSRMM"]


@pytest.mark.parametrize("name", NAMES)
def test_primitive_gives_its_entry_values(name):
    entry = PRIMITIVES[name]
    sample = entry.samples("float32")[0]
    named = dict(zip(entry.inputs, [Tensor(array) for array in sample.arrays]), **sample.kwargs)
    arguments = [named[parameter] for parameter in entry.signature.parameters]
    primitive = getattr(csr_ops, name)()
    assert primitive.name == name
    np.testing.assert_array_equal(primitive(*arguments).asnumpy(), entry.function(**named).asnumpy())


def test_the_private_mindspore_path_imports_them(hook):
    from mindspore.ops.operations import _csr_ops

    assert all(getattr(_csr_ops, name) is getattr(csr_ops, name) for name in NAMES)
    with pytest.raises(TypeError, match="CSRMV"):
        _csr_ops.CSRMV()(Tensor([0, 1]))
