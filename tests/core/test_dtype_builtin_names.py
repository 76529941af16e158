"""``mindspore.bool`` / ``int`` / ``float``: MindSpore 2.x's dtypes under Python's builtin names."""
import pytest

import sporax as ms
from sporax.compat import install, is_installed, uninstall
from sporax.core import dtype


def test_builtin_names_are_the_dtypes():
    # In MindSpore 2.10: mindspore.bool is mindspore.bool_, mindspore.int is int32, mindspore.float
    # is float32 (also on mindspore.common.dtype).
    assert ms.bool is ms.bool_ and ms.int is ms.int32 and ms.float is ms.float32
    assert dtype.bool is ms.bool_ and dtype.int is ms.int32 and dtype.float is ms.float32
    assert ms.ops.ones((2,), ms.bool).dtype == ms.bool_


def test_the_builtins_stay_builtins_inside_the_modules():
    assert "bool" not in vars(ms) and "bool" not in vars(dtype)
    assert dtype.promote_with_scalar(ms.int32, True) is ms.int32


def test_under_the_hook_and_unknown_names_still_raise():
    was_installed = is_installed()
    install()
    try:
        import mindspore
        from mindspore import bool as mindspore_bool
        assert mindspore_bool is ms.bool_ and mindspore.float is ms.float32
    finally:
        if not was_installed:
            uninstall()
    with pytest.raises(AttributeError, match="no attribute 'boolean'"):
        ms.boolean
    with pytest.raises(AttributeError, match="no attribute 'boolean'"):
        dtype.boolean
