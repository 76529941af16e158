"""``mindspore.utils.dlpack`` (MindSpore 2.10's docstring example: a Tensor round-trips through a DLPack capsule)."""
import numpy as np
import pytest

from sporax import Tensor
from sporax.ops.dlpack import from_dlpack, to_dlpack
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)


def test_capsule_round_trip_and_consumed_once(hook):
    from mindspore.utils import dlpack  # noqa: PLC0415 - served only while the hook is installed

    assert dlpack.to_dlpack is to_dlpack and dlpack.from_dlpack is from_dlpack
    values = np.arange(6, dtype=np.float32).reshape(2, 3)
    capsule = to_dlpack(Tensor(values))
    assert type(capsule).__name__ == "PyCapsule"  # MindSpore 2.10: <class 'PyCapsule'>
    back = from_dlpack(capsule)
    assert isinstance(back, Tensor) and back.shape == (2, 3)
    np.testing.assert_array_equal(back.asnumpy(), values)
    # MindSpore 2.10: a second from_dlpack of the same capsule raises RuntimeError.
    with pytest.raises(RuntimeError, match="^from_dlpack received an invalid capsule"):
        from_dlpack(capsule)
    np.testing.assert_array_equal(Tensor.from_dlpack(Tensor(values).to_dlpack()).asnumpy(), values)
