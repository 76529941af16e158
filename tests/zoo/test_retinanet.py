"""RetinaNet: the zoo's train.py unchanged under sporax run on its detection MindRecord.

The script reads every network size from its config, so the test writes a copy of the zoo's GPU
config with 64-pixel images (feature maps 8/4/2/1/1, 774 anchors) and a batch of 2, and trains one
epoch (2 steps; the script asks for data sink mode, which on device_target CPU runs step by step, as on
MindSpore 2.10, so LossMonitor prints both steps). MindSpore 2.10 itself does not compile this script's loss: its
``P.Less()(0, gt_label)`` (a Python int as the first input) is refused in both modes ("Failed calling
Less with input=Int64"), which sporax accepts; so there is no oracle loss, and the test checks what a
user of sporax would: the run ends, its loss is finite and its checkpoint loads.
"""
import glob
import math
import os
import re

import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_box_mindrecord

SMALL = {"img_shape": "[64, 64]", "feature_size": "[8, 4, 2, 1, 1]", "num_retinanet_boxes": "774",
         "device_target": '"CPU"', "batch_size": "2", "epoch_size": "1", "workers": "2",
         "save_checkpoint_path": '"./ckpt"'}


@pytest.mark.slow
def test_retinanet_trains_an_epoch_and_writes_a_loadable_checkpoint(tmp_path):
    pytest.importorskip("cv2", reason="RetinaNet's data pipeline needs OpenCV (a requirement of the model zoo)")
    zoo = model_dir("cv", "RetinaNet")
    write_box_mindrecord(str(tmp_path / "data" / "retinanet.mindrecord0"), count=4, size=64)
    with open(os.path.join(zoo, "config", "default_config_gpu.yaml")) as handle:
        config = handle.read()
    for key, value in dict(SMALL, mindrecord_dir=f'"{tmp_path / "data"}"').items():
        config, count = re.subn(rf"^{key}:.*$", f"{key}: {value}", config, count=1, flags=re.M)
        assert count == 1, key
    (tmp_path / "retinanet.yaml").write_text(config)
    output = run_script(os.path.join(zoo, "train.py"), [f"--config_path={tmp_path / 'retinanet.yaml'}"],
                        cwd=str(tmp_path))
    losses = numbers_after(r"loss is", output)
    assert len(losses) == 2 and all(math.isfinite(loss) and loss > 0 for loss in losses), output[-3000:]
    checkpoint = glob.glob(str(tmp_path / "ckpt" / "retinanet-1_2.ckpt"))
    assert checkpoint, os.listdir(tmp_path)
    from sporax import load_checkpoint
    parameters = load_checkpoint(checkpoint[0])
    assert any("multi_box" in name or "retinanet" in name for name in parameters), sorted(parameters)[:20]
