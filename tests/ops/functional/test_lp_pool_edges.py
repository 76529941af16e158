"""lp_pool1d/lp_pool2d in ceil mode: a window cut by the input's edge sums its elements times
(window size / elements inside), as MindSpore 2.10 (values recorded there)."""
import numpy as np

from sporax import Tensor, ops


def test_lp_pool2d_ceil_mode_scales_a_cut_window_to_the_whole_window():
    x = Tensor(np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5))
    out = ops.lp_pool2d(x, 2, 2, 2, ceil_mode=True).asnumpy()[0, 0]
    np.testing.assert_allclose(out, [[7.8740081787109375, 11.224971771240234, 13.928387641906738],
                                     [26.495281219482422, 30.430248260498047, 33.37664031982422],
                                     [41.0121955871582, 45.0111083984375, 48.0]], rtol=1e-6)
    out = ops.lp_pool2d(x, 1, (3, 2), (2, 2), ceil_mode=True).asnumpy()[0, 0]
    np.testing.assert_allclose(out, [[33.0, 45.0, 54.0], [93.0, 105.0, 114.0]], rtol=1e-6)


def test_lp_pool1d_ceil_mode_scales_a_cut_window_to_the_whole_window():
    x = Tensor(np.arange(1, 6, dtype=np.float32).reshape(1, 1, 5))
    np.testing.assert_allclose(ops.lp_pool1d(x, 2, 2, 2, ceil_mode=True).asnumpy(),
                               [[[2.2360680103302, 5.0, 7.071067810058594]]], rtol=1e-6)
    np.testing.assert_allclose(ops.lp_pool1d(x, 1, 3, 3, ceil_mode=True).asnumpy(), [[[6.0, 13.5]]], rtol=1e-6)
    np.testing.assert_allclose(ops.lp_pool1d(Tensor(np.arange(1, 6, dtype=np.float32).reshape(1, 5)), 3.0, 2, 2,
                                             ceil_mode=True).asnumpy(),
                               [[2.0800838470458984, 4.497941493988037, 6.299605369567871]], rtol=1e-6)


def test_lp_pool_without_a_cut_window_is_the_plain_power_sum():
    x = Tensor(np.array([[[1.0, -2.0, 3.0, 4.0]]], np.float32))
    np.testing.assert_allclose(ops.lp_pool1d(x, 2, 2, ceil_mode=True).asnumpy(), [[[np.sqrt(5.0), 5.0]]], rtol=1e-6)
