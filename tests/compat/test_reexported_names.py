"""Names MindSpore 2.10 binds a second time and libraries reach there (recorded on MindSpore 2.10:
``mindspore.ops.Tensor is mindspore.Tensor``, ``mindspore.mint.functional is mindspore.mint.nn.functional``,
``mint.nn.LayerNorm is nn.LayerNormExt``, ``mint.nn.MaxPool2d is nn.MaxPool2dExt``, ``mint.nn.Softshrink`` is
``nn.SoftShrink``, ``mint.nn.Cell is nn.Cell``, ``mindspore._c_expression.typing`` the classes of the dtypes)."""
from tests.compat.test_hook import hook  # noqa: F401 - the shared install/uninstall fixture


def test_ops_reexports_the_tensor_class(hook):
    import mindspore  # noqa: PLC0415 - served only while the hook is installed
    from mindspore import ops  # noqa: PLC0415

    assert ops.Tensor is mindspore.Tensor


def test_mint_functional_is_mint_nn_functional(hook):
    from mindspore import mint  # noqa: PLC0415

    assert mint.functional.softmax is mint.nn.functional.softmax
    assert mint.functional.unfold is mint.nn.functional.unfold


def test_mint_nn_serves_nn_layers_themselves(hook):
    from mindspore import mint, nn  # noqa: PLC0415

    assert mint.nn.LayerNorm is nn.LayerNormExt
    assert mint.nn.MaxPool2d is nn.MaxPool2dExt
    assert mint.nn.Softshrink is nn.SoftShrink
    assert mint.nn.Cell is nn.Cell


def test_c_expression_typing_holds_the_dtype_classes(hook):
    import mindspore as ms  # noqa: PLC0415
    from mindspore._c_expression.typing import BFloat, Bool, Float, Int  # noqa: PLC0415

    # The same answers as MindSpore 2.10 (mindformers tells float dtypes by these classes).
    assert isinstance(ms.float32, Float) and isinstance(ms.float16, Float) and isinstance(ms.bfloat16, BFloat)
    assert not isinstance(ms.bfloat16, Float) and not isinstance(ms.int32, Float)
    assert type(ms.int32) is Int and type(ms.bool_) is Bool
