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


def test_generated_names_are_the_public_functions(hook):
    """MindSpore 2.10: ``math_func.amax_ext is mint.amax``, ``array_func.gather_ext is mint.gather``,
    ``functional_overload.any is mint.any``; its docstring examples call them at those paths."""
    import importlib

    from mindspore import Tensor, mint
    from mindspore.ops.function.array_func import gather_ext
    from mindspore.ops.function.math_func import amax_ext, amin_ext
    import mindspore.mint.nn.functional as mint_functional
    import mindspore.ops.functional_overload as functional_overload

    assert amax_ext is mint.amax and amin_ext is mint.amin and gather_ext is mint.gather
    assert functional_overload.any is mint.any and functional_overload.gelu is mint_functional.gelu
    auto_generate = importlib.import_module("mindspore.ops.auto_generate")
    assert auto_generate.transpose_ext_view is mint.transpose and auto_generate.inplace_addr is mint.addr_
    assert "amax_ext" in dir(importlib.import_module("mindspore.ops.function.math_func"))
    x = Tensor(np.array([[1.0, 5.0], [3.0, 2.0]], np.float32))
    # Values recorded from MindSpore 2.10's docstring examples' calls.
    assert amax_ext(x, 1, True).asnumpy().tolist() == [[5.0], [3.0]]
    assert gather_ext(x, 1, Tensor(np.array([[1], [0]], np.int32))).asnumpy().tolist() == [[5.0], [3.0]]
    assert bool(functional_overload.any(Tensor(np.array([False, True])))) is True


def test_auto_generate_kthvalue_is_served(hook):
    """MindSpore 2.10's kthvalue docstring example imports it from ``mindspore.ops.auto_generate`` (recorded there:
    ``kthvalue(input, k, dim=-1, keepdim=False)``; its kernel is Ascend-only, the values are the k-th smallest)."""
    from mindspore import Tensor
    from mindspore.ops.auto_generate import kthvalue

    x = Tensor(np.array([[1.01, 2.02, 3.03], [1.04, 2.05, 3.06]], np.float32))
    values, indices = kthvalue(x, 2, 1, False)
    np.testing.assert_allclose(values.asnumpy(), [2.02, 2.05], rtol=1e-6)
    assert indices.asnumpy().tolist() == [1, 1]


def test_every_named_row_resolves():
    from sporax.compat.table import NAMES
    import importlib

    for path, rows in NAMES.items():
        for name, target in rows.items():
            module_name, attribute = target.rsplit(".", 1)
            assert callable(getattr(importlib.import_module(module_name), attribute)), (path, name)


def test_auto_generate_copy_returns_the_values_of_a_strided_view(hook):
    """MindSpore 2.10's pyboost tests copy a transposed or sliced Tensor with ``auto_generate.copy`` (and its
    Primitive ``Copy``); the copy holds the view's values."""
    from mindspore import Tensor, ops
    from mindspore.ops.auto_generate import Copy, copy
    from mindspore.ops.auto_generate.gen_ops_def import copy as generated_copy

    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(copy(ops.transpose(Tensor(x), (2, 0, 1))).asnumpy(), x.transpose(2, 0, 1))
    np.testing.assert_array_equal(generated_copy(Tensor(x)[1:2, 0:3:2]).asnumpy(), x[1:2, 0:3:2])
    np.testing.assert_array_equal(Copy()(Tensor(x)).asnumpy(), x)


def test_array_func_keeps_ready_made_arg_extreme_with_value_instances(hook):
    """MindSpore 2.10: ``array_func.arg_max_with_value_`` is an ``ArgMaxWithValue`` (axis 0, keep_dims False)
    returning (index, value); recorded: [[0, .4], [.6, .1]] -> ([1, 0], [.6, .4]) and ([0, 1], [0, .1])."""
    from mindspore import Tensor
    from mindspore.ops.function.array_func import arg_max_with_value_, arg_min_with_value_

    x = Tensor(np.array([[0.0, 0.4], [0.6, 0.1]], np.float32))
    index, value = arg_max_with_value_(x)
    assert index.asnumpy().tolist() == [1, 0] and np.allclose(value.asnumpy(), [0.6, 0.4])
    index, value = arg_min_with_value_(x)
    assert index.asnumpy().tolist() == [0, 1] and np.allclose(value.asnumpy(), [0.0, 0.1])


def test_auto_generate_serves_the_generated_primitive_classes_and_view(hook):
    """MindSpore 2.10's auto_generate (and gen_ops_prim) hold the generated Primitive classes; recorded there:
    view(arange(6), (2, 3)) -> [[0, 1, 2], [3, 4, 5]], Muls()(x, 2.0) -> 2x, SumExt()(x(2, 3), (1,), False, None)
    -> [3, 12]."""
    from mindspore import Tensor
    from mindspore.ops.auto_generate import Muls, View, view
    from mindspore.ops.auto_generate.gen_ops_prim import SumExt

    import sporax.ops.operations as P
    assert Muls is P.Muls and View is P.View
    x = np.arange(6, dtype=np.float32)
    np.testing.assert_array_equal(view(Tensor(x), (2, 3)).asnumpy(), x.reshape(2, 3))
    np.testing.assert_array_equal(View()(Tensor(x), (3, 2)).asnumpy(), x.reshape(3, 2))
    np.testing.assert_array_equal(Muls()(Tensor(x), 2.0).asnumpy(), x * 2)
    np.testing.assert_array_equal(SumExt()(Tensor(x.reshape(2, 3)), (1,), False, None).asnumpy(), [3.0, 12.0])


def test_auto_generate_functions_of_mint_ops(hook):
    """MindSpore 2.10's generated functions ``clamp_scalar``/``clamp_tensor``, ``flatten_ext``,
    ``expand_dims_view``, ``transpose_view`` are mint's and ops' functions."""
    from mindspore import Tensor  # noqa: PLC0415
    from mindspore.ops.auto_generate import (  # noqa: PLC0415
        clamp_scalar, clamp_tensor, expand_dims_view, flatten_ext, transpose_view)

    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(clamp_scalar(x, 1, 3).asnumpy(), np.clip(x.asnumpy(), 1, 3))
    np.testing.assert_array_equal(clamp_tensor(x, Tensor(2.0)).asnumpy(), np.maximum(x.asnumpy(), 2))
    assert flatten_ext(x).shape == (6,) and expand_dims_view(x, 0).shape == (1, 2, 3)
    np.testing.assert_array_equal(transpose_view(x, (1, 0)).asnumpy(), x.asnumpy().T)


def test_auto_generate_primitive_instances(hook):
    """MindSpore 2.10's generated modules bind Primitive instances (``cast_op = Cast()``): one kept instance each."""
    import importlib  # noqa: PLC0415

    import mindspore  # noqa: PLC0415
    from mindspore.ops.auto_generate import cast_op, upsample_nearest2d_op  # noqa: PLC0415

    generated = importlib.import_module("mindspore.ops.auto_generate.gen_ops_prim")
    assert cast_op.name == "Cast" and generated.cast_op is cast_op
    np.testing.assert_array_equal(cast_op(mindspore.Tensor([1.5, -2.5]), mindspore.int32).asnumpy(), [1, -2])
    image = mindspore.Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2))
    assert upsample_nearest2d_op(image, [4, 4], None).shape == (1, 1, 4, 4)
    with pytest.raises(ImportError):
        from mindspore.ops.auto_generate import not_an_instance_op  # noqa: F401,PLC0415


def test_auto_generate_add_ext_takes_alpha_by_position(hook):
    """MindSpore 2.10's ``ops.auto_generate.add_ext(x, y, alpha)`` / ``sub_ext``, recorded there: Int32 1 and
    Float32 [4, 5, 6] with alpha 0.5 -> [3, 3.5, 4] (Float32); sub_ext([4, 5, 6], 1, 0.5) -> [3.5, 4.5, 5.5]."""
    from mindspore import Tensor  # noqa: PLC0415
    from mindspore.ops import auto_generate  # noqa: PLC0415

    y = Tensor(np.array([4, 5, 6], np.float32))
    out = auto_generate.add_ext(Tensor(1, dtype=np.int32), y, 0.5)
    assert out.asnumpy().tolist() == [3.0, 3.5, 4.0] and str(out.dtype) == "Float32"
    assert auto_generate.sub_ext(y, Tensor(1, dtype=np.int32), 0.5).asnumpy().tolist() == [3.5, 4.5, 5.5]


def test_nn_layer_cosine_similarity_is_a_cell_not_the_metric(hook):
    """``mindspore.nn.layer(.math).CosineSimilarity`` is a Cell (values recorded from MindSpore 2.10: its docstring
    example and dim=0); ``mindspore.nn.CosineSimilarity`` stays the metric."""
    import mindspore  # noqa: PLC0415
    from mindspore.nn.layer.math import CosineSimilarity  # noqa: PLC0415

    x1 = mindspore.Tensor([[1.0, 3.0, 4.0, 7.0], [2.0, 4.0, 2.0, 5.0], [3.0, 1.0, 5.0, 8.0]])
    x2 = mindspore.Tensor([[2.0, 4.0, 2.0, 5.0], [3.0, 1.0, 5.0, 8.0], [1.0, 3.0, 4.0, 7.0]])
    assert mindspore.nn.layer.CosineSimilarity is CosineSimilarity
    np.testing.assert_allclose(CosineSimilarity()(x1, x2).asnumpy(), [0.9402562, 0.8614609, 0.9516245], rtol=1e-6)
    np.testing.assert_allclose(CosineSimilarity(dim=0)(x1, x2).asnumpy(),
                               [0.78571427, 0.7307692, 0.84444445, 0.9492754], rtol=1e-6)
    assert issubclass(mindspore.nn.CosineSimilarity, mindspore.train.Metric)


def test_array_and_math_func_generated_names(hook):
    """MindSpore 2.10's ``ops.function.array_func`` chunk_ext/new_ones/new_zeros/max_ext/min_ext and
    ``math_func.mean_ext``: their docstring examples' values, recorded there."""
    from mindspore import Tensor  # noqa: PLC0415
    from mindspore.ops.function import array_func, math_func  # noqa: PLC0415

    pieces = array_func.chunk_ext(Tensor(np.arange(9).astype("float32")), 3)
    assert [piece.asnumpy().tolist() for piece in pieces] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    ints = Tensor(np.array([1, 2, 3, 4], np.int32))
    ones = array_func.new_ones(ints, (2, 3))
    assert ones.asnumpy().tolist() == [[1, 1, 1]] * 2 and str(ones.dtype) == "Int32"
    assert array_func.new_zeros(ints, (2, 3)).asnumpy().tolist() == [[0, 0, 0]] * 2
    y = Tensor(np.array([[0.0, 0.3, 0.4, 0.5, 0.1], [3.2, 0.4, 0.1, 2.9, 4.0]], np.float32))
    values, index = array_func.max_ext(y, 0, True)
    np.testing.assert_allclose(values.asnumpy(), [[3.2, 0.4, 0.4, 2.9, 4.0]])
    assert index.asnumpy().tolist() == [[1, 1, 0, 1, 1]]
    values, index = array_func.min_ext(Tensor(np.array([0.0, 0.4, 0.6, 0.7, 0.1], np.float32)), 0, keepdim=True)
    assert values.asnumpy().tolist() == [0.0] and index.asnumpy().tolist() == [0]
    x = Tensor(np.array([[2.0] * 3, [4.0, 5.0, 6.0], [6.0, 8.0, 10.0]], np.float32))
    assert float(math_func.mean_ext(x).asnumpy()) == 5.0
    assert math_func.mean_ext(x, 1, keep_dims=True).asnumpy().tolist() == [[2.0], [5.0], [8.0]]
