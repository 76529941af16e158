"""Uncentered RMSProp divides as MindSpore 2.10's CPU kernel does (values recorded on MindSpore 2.10).

The kernel's vectorised loop (blocks of 8 floats from the start of the flattened tensor) divides by
``sqrt(ms) + epsilon``; the last ``size % 8`` elements by ``sqrt(ms + epsilon)``. With InceptionV3's
epsilon of 1.0 the two differ in the third digit. Centered RMSProp uses ``sqrt(ms - mg**2 + epsilon)`` throughout.
"""
import numpy as np

from sporax import Tensor, ops
from sporax.core.parameter import Parameter
from sporax.nn.optim import RMSProp

# ApplyRMSProp(var=1, ms=1, moment=0, lr=0.01, grad=linspace(-1, 1, 10), decay=0.9, momentum=0.9, epsilon=1.0)
APPLY = [1.0049999952316284, 1.0039280652999878, 1.002827525138855, 1.0017054080963135, 1.0005699396133423,
         0.9994300007820129, 0.9982945322990417, 0.997172474861145, 0.9944451451301575, 0.9929289221763611]
# nn.RMSProp(lr=0.01, decay=0.9, momentum=0.9, epsilon=1.0) on w = linspace(-1, 1, 27).reshape(3, 3, 3),
# two steps with grad = cos(arange(27)) and then half of it.
OPTIMIZER = [-1.0120487213134766, -0.929712176322937, -0.8410263657569885, -0.7572964429855347,
             -0.6843104362487793, -0.6188888549804688, -0.550054132938385, -0.47072699666023254,
             -0.3828149437904358, -0.29666516184806824, -0.22057998180389404, -0.15390095114707947,
             -0.08716820180416107, -0.010984539985656738, 0.07523093372583389, 0.16310299932956696,
             0.24233293533325195, 0.3110920190811157, 0.3765384256839752, 0.4496188461780548,
             0.5334324836730957, 0.622109591960907, 0.7043560147285461, 0.7757757306098938,
             0.8387669324874878, 0.9061803221702576, 0.9888065457344055]


def test_apply_rmsprop_divides_the_vectorised_blocks_by_root_plus_epsilon():
    var = Parameter(Tensor(np.ones(10, np.float32)), name="var")
    mean_square = Parameter(Tensor(np.ones(10, np.float32)), name="mean_square")
    moment = Parameter(Tensor(np.zeros(10, np.float32)), name="moment")
    gradient = np.linspace(-1, 1, 10).astype(np.float32)
    ops.ApplyRMSProp()(var, mean_square, moment, Tensor(np.float32(0.01)), Tensor(gradient), 0.9, 0.9, 1.0)
    np.testing.assert_allclose(var.asnumpy(), APPLY, rtol=1e-6)
    # elements 0-7 (one block): 1 - 0.01 g / (sqrt(ms) + 1); 8-9 (the tail): 1 - 0.01 g / sqrt(ms + 1)
    square = 0.9 + 0.1 * gradient * gradient
    np.testing.assert_allclose(APPLY[:8], 1 - 0.01 * gradient[:8] / (np.sqrt(square[:8]) + 1), rtol=1e-6)
    np.testing.assert_allclose(APPLY[8:], 1 - 0.01 * gradient[8:] / np.sqrt(square[8:] + 1), rtol=1e-6)


def test_rmsprop_optimizer_follows_the_kernel_over_a_flattened_tensor():
    weight = Parameter(Tensor(np.linspace(-1, 1, 27).astype(np.float32).reshape(3, 3, 3)), name="w")
    optimizer = RMSProp([weight], 0.01, decay=0.9, momentum=0.9, epsilon=1.0)
    gradient = np.cos(np.arange(27)).astype(np.float32).reshape(3, 3, 3)
    optimizer((Tensor(gradient),))
    optimizer((Tensor(gradient * 0.5),))
    np.testing.assert_allclose(weight.asnumpy().ravel(), OPTIMIZER, rtol=1e-6, atol=1e-7)
