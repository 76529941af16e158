"""nn.MSSSIM against MindSpore 2.10 (values recorded from the oracle in GRAPH mode; its PyNative
MSSSIM fails on a scalar cast)."""
import numpy as np
import pytest

from sporax import Tensor, nn


def _images():
    rng = np.random.RandomState(0)
    a = rng.rand(2, 2, 16, 16).astype(np.float32)
    b = np.clip(a + 0.1 * rng.randn(2, 2, 16, 16), 0, 1).astype(np.float32)
    return a, b


def test_msssim_float_images_match_mindspore():
    a, b = _images()
    out = nn.MSSSIM(power_factors=(0.3, 0.3, 0.4), filter_size=3)(Tensor(a), Tensor(b))
    np.testing.assert_allclose(out.asnumpy(), [0.93964875, 0.9500211], rtol=1e-5)
    same = nn.MSSSIM(power_factors=(0.3, 0.3, 0.4), filter_size=3)(Tensor(a), Tensor(a))
    np.testing.assert_allclose(same.asnumpy(), [1.0, 1.0], rtol=1e-5)


def test_msssim_uint8_images_are_scaled_like_mindspore():
    a, b = _images()
    a, b = (a * 255).astype(np.uint8), (b * 255).astype(np.uint8)
    out = nn.MSSSIM(max_val=255, power_factors=(0.5, 0.5), filter_size=5, filter_sigma=1.0)(Tensor(a), Tensor(b))
    np.testing.assert_allclose(out.asnumpy(), [0.95243186, 0.9455005], rtol=1e-5)


def test_msssim_rejects_images_too_small_for_the_scales():
    a, _ = _images()
    with pytest.raises(ValueError, match="too small"):
        nn.MSSSIM()(Tensor(a), Tensor(a))
