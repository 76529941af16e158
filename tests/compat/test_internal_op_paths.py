"""MindSpore's internal module layout under ops.function / ops.operations (its own tests import from it)."""
import numpy as np
import pytest

from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)


def test_function_submodules_serve_the_functional_ops(hook):
    from mindspore import Tensor
    from mindspore.ops.function.array_func import concat
    from mindspore.ops.function.grad.grad_func import jacfwd
    from mindspore.ops.function.math_func import approximate_equal
    from mindspore.ops.function.nn_func import adaptive_max_pool2d

    import sporax.ops.functional as F
    assert approximate_equal is F.approximate_equal and concat is F.concat
    assert jacfwd is F.jacfwd and adaptive_max_pool2d is F.adaptive_max_pool2d
    result = approximate_equal(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.5, 2.0], np.float32)), 0.4)
    assert result.asnumpy().tolist() == [False, True]


def test_operations_submodules_serve_the_primitives(hook):
    from mindspore.ops.operations.image_ops import ResizeBilinearV2
    from mindspore.ops.operations.linalg_ops import Svd
    from mindspore.ops.composite.base import GradOperation

    import sporax.ops.operations as P
    from sporax.ops.composite import GradOperation as canonical_grad_operation
    assert ResizeBilinearV2 is P.ResizeBilinearV2 and Svd is P.Svd
    assert GradOperation is canonical_grad_operation
