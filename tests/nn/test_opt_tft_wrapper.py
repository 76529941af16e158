"""nn.OptTFTWrapper on a device that is not Ascend: MindSpore 2.10's errors (recorded from it on CPU)."""
import importlib

import pytest

import sporax as ms
from sporax import nn


def _optimizer():
    return nn.SGD(nn.Dense(2, 2).trainable_params(), 0.1)


def test_the_wrapped_object_must_be_an_optimizer():
    with pytest.raises(TypeError, match="For 'OptTFTWrapper', the argument 'opt' must be Optimizer type, "
                                        "but got <class 'int'>."):
        nn.OptTFTWrapper(3)


@pytest.mark.parametrize("switches", [None, "{TTP:0,UCE:0}"])
def test_without_the_tft_switch_it_asks_for_ms_enable_tft(monkeypatch, switches):
    if switches is None:
        monkeypatch.delenv("MS_ENABLE_TFT", raising=False)
    else:
        monkeypatch.setenv("MS_ENABLE_TFT", switches)
    with pytest.raises(ValueError, match=r"MindIO TFT regitster need custom switch on\[MS_ENABLE_TFT="):
        nn.OptTFTWrapper(_optimizer())


def test_with_the_switch_on_it_needs_an_ascend_device(monkeypatch):
    monkeypatch.setenv("MS_ENABLE_TFT", "{TTP:1}")
    ms.set_context(device_target="CPU")
    with pytest.raises(ValueError, match="MindIO adataper only support on Ascend device!"):
        nn.OptTFTWrapper(_optimizer())


def test_mindspore_path_serves_it():
    from sporax.compat import install

    install()
    assert importlib.import_module("mindspore.nn.optim.tft_wrapper").OptTFTWrapper is nn.OptTFTWrapper
    assert issubclass(nn.OptTFTWrapper, nn.Optimizer)
