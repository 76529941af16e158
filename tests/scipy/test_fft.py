"""mindspore.scipy.fft cosine transforms: values recorded from MindSpore 2.10's docstring examples (CPU)."""
import numpy as np
import pytest

from sporax import Tensor
from sporax.scipy.fft import dct, dctn, idct, idctn


def test_values_match_mindspore():
    x = Tensor([1, 2, 3])
    out = dct(x, 2, 3, -1, "ortho")
    assert str(out.dtype) == "Float32"
    np.testing.assert_allclose(out.asnumpy(), [3.4641018, -1.4142137, 0.0], atol=1e-6)
    np.testing.assert_allclose(idct(x, 2, 3, -1, "ortho").asnumpy(), [3.2163088, -1.8721395, 0.38788158], rtol=1e-5)
    x = Tensor([[1, 2, 3], [2, 1, 1]])
    np.testing.assert_allclose(dctn(x, 2, s=(2, 3), axes=(0, 1), norm="ortho").asnumpy(),
                               [[4.0824828, -0.4999999, 0.28867507], [0.81649655, -1.5, -0.28867513]], rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(idctn(x, 2, s=(2, 3), axes=(0, 1), norm="ortho").asnumpy(),
                               [[3.8794453, -1.0846562, 0.8794453], [0.669102, -1.5629487, -0.3308980]], rtol=1e-5)


def test_round_trip_and_errors():
    x = Tensor(np.arange(6, dtype=np.float64).reshape(2, 3))
    back = idctn(dctn(x, norm="ortho"), norm="ortho")
    assert str(back.dtype) == "Float64"
    np.testing.assert_allclose(back.asnumpy(), x.asnumpy(), atol=1e-12)
    with pytest.raises(ValueError, match="type must be 1, 2, 3 or 4"):
        dct(x, type=5)
    with pytest.raises(ValueError, match="norm must be"):
        dct(x, norm="unit")


def test_default_norm_is_ortho_as_in_mindspore():
    # MindSpore 2.10: dct(x), idct(x) and dctn of a 2x2 with norm left None give the 'ortho' transforms
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_allclose(dct(x).asnumpy(), [3.4641018, -1.4142137, 0.0], atol=1e-6)
    np.testing.assert_allclose(idct(x).asnumpy(), [3.2163088, -1.8721395, 0.38788158], rtol=1e-5)
    np.testing.assert_allclose(dctn(Tensor(np.arange(4.0, dtype=np.float32).reshape(2, 2))).asnumpy(),
                               [[3.0, -1.0], [-2.0, 0.0]], atol=1e-6)
