"""``DeviceCtx``: the context's device inside the block, restored after it."""
import pytest

import sporax as ms


def test_device_ctx_sets_and_restores_the_device():
    before = (ms.get_context("device_target"), ms.get_context("device_id"))
    with ms.DeviceCtx("CPU", 0) as ctx:
        assert ctx.name == "CPU"
        assert ms.get_current_device() == ("CPU", 0)
        x = ms.ops.ones((2,)) + 1
    assert x.asnumpy().tolist() == [2.0, 2.0]
    assert (ms.get_context("device_target"), ms.get_context("device_id")) == before


def test_device_ctx_restores_after_an_error():
    before = ms.get_current_device()
    with pytest.raises(ZeroDivisionError):
        with ms.DeviceCtx("CPU"):
            raise ZeroDivisionError
    assert ms.get_current_device() == before


@pytest.mark.parametrize("name, device_id, error", [("TPU", None, ValueError), ("CPU", -1, ValueError),
                                                    ("meta", None, NotImplementedError)])
def test_device_ctx_refuses(name, device_id, error):
    with pytest.raises(error):
        with ms.DeviceCtx(name, device_id):
            pass
