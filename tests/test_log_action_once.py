"""mindspore.log._LogActionOnce: a function's warnings shown on its first call only (per key)."""
import pytest

from sporax import log
from sporax.log import _LogActionOnce


class RecordingLogger:
    def __init__(self):
        self.messages = []

    def warning(self, message, *args):
        self.messages.append(message)


def test_warnings_shown_on_the_first_call_only():
    logger = RecordingLogger()

    @_LogActionOnce(logger=logger, key="test_log_action_once.first")
    def build(index):
        logger.warning(f"w{index}")
        return index

    # MindSpore 2.10: results pass through; only 'w1' is logged.
    assert (build(1), build(2)) == (1, 2)
    assert logger.messages == ["w1"]
    assert logger.warning.__func__ is RecordingLogger.warning  # restored after each call


def test_key_is_shared_and_no_warning_silences():
    logger = RecordingLogger()
    first = _LogActionOnce(logger=logger, key="test_log_action_once.shared")(lambda: logger.warning("a"))
    second = _LogActionOnce(logger=logger, key="test_log_action_once.shared")(lambda: logger.warning("b"))
    quiet = _LogActionOnce(logger=logger, key="test_log_action_once.quiet", no_warning=True)(
        lambda: logger.warning("c"))
    first(), second(), quiet()
    assert logger.messages == ["a"]
    # no_warning does not use up the key: a loud decorator with that key still shows its first warning.
    _LogActionOnce(logger=logger, key="test_log_action_once.quiet")(lambda: logger.warning("d"))()
    assert logger.messages == ["a", "d"]


def test_restores_the_warning_after_an_error():
    logger = RecordingLogger()
    original = logger.warning
    _LogActionOnce(logger=logger, key="test_log_action_once.error")(lambda: None)()

    @_LogActionOnce(logger=logger, key="test_log_action_once.error")
    def failing():
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        failing()
    assert logger.warning == original


def test_works_with_the_module_logger():
    wrapped = _LogActionOnce(logger=log, key="test_log_action_once.module")(lambda value: value * 2)
    assert wrapped(3) == 6 and log.warning.__name__ == "warning"
