"""The Ascend-service training APIs refuse with the reason, after MindSpore's own argument checks."""
import pytest

import sporax as ms
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)


def test_train_fault_tolerance(monkeypatch):
    monkeypatch.delenv("MS_ENABLE_TFT", raising=False)
    with pytest.raises(ValueError, match="MindIO TFT register need custom switch"):
        ms.TrainFaultTolerance(ckpt_save_path="./ckpt")
    monkeypatch.setenv("MS_ENABLE_TFT", "{TTP:1}")
    with pytest.raises(NotImplementedError, match="MindIO TFT.*ModelCheckpoint"):
        ms.TrainFaultTolerance(ckpt_save_path="./ckpt")


def test_convert_net_utils():
    with pytest.raises(NotImplementedError, match="THOR"):
        ms.ConvertNetUtils().convert_to_thor_net(ms.nn.Dense(2, 2))


def test_export_split_mindir(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        ms.export_split_mindir(str(tmp_path / "net.mindir"))
    with pytest.raises(ValueError, match="should end with '.mindir'"):
        ms.export_split_mindir("net.onnx")
    (tmp_path / "net.mindir").write_bytes(b"")
    with pytest.raises(NotImplementedError, match="SAPP"):
        ms.export_split_mindir(str(tmp_path / "net.mindir"))


def test_set_op_strategy_config(tmp_path):
    with pytest.raises(KeyError, match="absolute path"):
        ms.parallel.set_op_strategy_config("SAVE", "strategy.json")
    with pytest.raises(KeyError, match=".json"):
        ms.parallel.set_op_strategy_config("SAVE", str(tmp_path / "strategy.txt"))
    with pytest.raises(KeyError, match="'SAVE' or 'LOAD'"):
        ms.parallel.set_op_strategy_config("KEEP", str(tmp_path / "strategy.json"))
    with pytest.raises(NotImplementedError, match="GSPMD"):
        ms.parallel.set_op_strategy_config("LOAD", str(tmp_path / "strategy.json"))



def test_silent_data_corruption_detection_is_disabled_off_ascend(hook, monkeypatch):
    # MindSpore 2.10 on CPU (the mindspore.utils docstrings): sdc_detect_start()/sdc_detect_stop() warn
    # "CheckSum is disable" and return None; get_sdc_detect_result() returns False.
    from mindspore.utils import get_sdc_detect_result, sdc_detect_start, sdc_detect_stop

    from sporax.train import ascend_services

    warnings = []
    monkeypatch.setattr(ascend_services.log, "warning", warnings.append)
    assert sdc_detect_start() is None and sdc_detect_stop() is None
    assert get_sdc_detect_result() is False
    assert len(warnings) == 2 and all(message.startswith("CheckSum is disable") for message in warnings)
