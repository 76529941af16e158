"""set_context keys the model zoo still passes (Transformer's train.py: reserve_class_name_in_scope=False):
MindSpore 2.10 stores some with a deprecation warning and takes others without storing them."""
import pytest

import sporax as ms


def test_stored_legacy_keys_round_trip():
    assert ms.get_context("reserve_class_name_in_scope") is True  # MindSpore 2.10's default
    assert ms.get_context("support_binary") is False
    try:
        ms.set_context(reserve_class_name_in_scope=False, support_binary=True)
        assert ms.get_context("reserve_class_name_in_scope") is False
        assert ms.get_context("support_binary") is True
    finally:
        ms.set_context(reserve_class_name_in_scope=True, support_binary=False)


@pytest.mark.parametrize("key, value", [("enable_sparse", True), ("auto_tune_mode", "NO_TUNE"),
                                        ("enable_auto_mixed_precision", True)])
def test_deprecated_keys_are_accepted_and_not_stored(key, value):
    ms.set_context(**{key: value})  # MindSpore 2.10 warns and ignores them
    with pytest.raises(ValueError, match=key):
        ms.get_context(key)


def test_unknown_key_still_rejected():
    with pytest.raises(ValueError, match="not recognized"):
        ms.set_context(no_such_key=1)


@pytest.mark.parametrize("key, message", [
    # recorded on MindSpore 2.10 (ms.set_context(grad_for_scalar=True), ...): ValueError, nothing stored
    ("grad_for_scalar", "For 'context.set_context', the parameter 'grad_for_scalar' has been removed since "
                        "MindSpore 2.10 version. Please use the tensor derivative instead."),
    ("precompile_only", "For 'context.set_context', the parameter 'precompile_only' has been removed since "
                        "MindSpore 2.10 version. Please use the env MS_DEV_PRECOMPILE_ONLY instead."),
])
def test_removed_keys_are_refused(key, message):
    with pytest.raises(ValueError) as error:
        ms.set_context(**{key: True})
    assert str(error.value) == message
