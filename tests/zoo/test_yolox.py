"""YOLOX (darknet53 backbone): the zoo's eval.py unchanged under sporax run on a 2-image COCO val2017 tree at
64x64 (a copy of its yaml with that input_size) with a seeded checkpoint saved under train.py's EMA names. MindSpore 2.10's eval.py on that same
checkpoint and data wrote the detections recorded below (168 boxes above conf_thre 1e-5; the untrained
network's scores are ~1e-4, so every COCO average is 0 and the detections themselves are compared).

train.py is not run: its loss (src/yolox.py) calls ``Tensor.clip(xmin=..., xmax=..., dtype=...)``, which
MindSpore 2.10 itself refuses (its Tensor.clip takes min/max) with a TypeError; sporax raises TypeError too.
"""
import glob
import json
import os

import numpy as np
import pytest

from tests.zoo.runner import SRC, model_dir, run_script
from tests.zoo.synthetic import write_coco

MAKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "yolox_seeded_checkpoint.py")
SMALL = ["--num_classes=3", "--per_batch_size=2", "--device_target=CPU"]


@pytest.mark.slow
def test_yolox_eval_detects_as_mindspore_does(tmp_path):
    for module in ("pycocotools", "cv2", "yaml"):
        pytest.importorskip(module, reason=f"the YOLOX scripts import {module} (a requirement of the model zoo)")
    zoo = model_dir("cv", "YOLOX")
    with open(os.path.join(zoo, "yolox_darknet53.yaml")) as handle:
        config = handle.read()
    assert "input_size: [640, 640]" in config  # a list, which the zoo's config takes from the yaml only
    (tmp_path / "yolox_64.yaml").write_text(config.replace("input_size: [640, 640]", "input_size: [64, 64]"))
    small = [f"--config_path={tmp_path / 'yolox_64.yaml'}", *SMALL]
    write_coco(str(tmp_path / "coco"), splits=(("train2017", 0), ("val2017", 2)), size=64)
    checkpoint = str(tmp_path / "seeded.ckpt")
    run_script(MAKER, [checkpoint, *small], cwd=str(tmp_path), env={"PYTHONPATH": os.pathsep.join([SRC, zoo])})
    output = run_script(os.path.join(zoo, "eval.py"),
                        [*small, f"--data_dir={tmp_path / 'coco'}", f"--val_ckpt={checkpoint}",
                         "--conf_thre=0.00001", f"--log_path={tmp_path / 'log'}"], cwd=str(tmp_path))
    assert "Average Precision  (AP) @[ IoU=0.50:0.95 | area=   all | maxDets=100 ] = 0.000" in output, output[-3000:]
    predictions = glob.glob(str(tmp_path / "log" / "*" / "predict_*.json"))
    assert len(predictions) == 1, output[-3000:]
    with open(predictions[0]) as handle:
        detections = json.load(handle)
    assert len(detections) == 168
    assert sorted({detection["image_id"] for detection in detections}) == [1001, 1002]
    assert np.bincount([detection["category_id"] for detection in detections]).tolist() == [0, 118, 18, 32]
    scores = np.array([detection["score"] for detection in detections])
    np.testing.assert_allclose([scores.sum(), scores.max()], [0.016825735692691524, 0.00010045641829492524],
                               rtol=1e-5)
    boxes = np.array([detection["bbox"] for detection in detections])
    np.testing.assert_allclose(boxes.sum(axis=0), [3731.1865701675415, 3771.5701320171356, 1666.318946838379,
                                                   1592.720283985138], rtol=1e-6)
