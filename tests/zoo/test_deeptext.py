"""DeepText (VGG16 + RPN + RCNN text detector): the zoo's train.py unchanged under sporax run on an ICDAR-style set.

The test writes a copy of default_config.yaml for 320x192 images (feature map 12x20, 7200 anchors),
600 proposals, a 256-wide RCNN head and one epoch of two steps; train.py then writes the set into
its 8-shard MindRecord (four images: half the shards stay empty), trains and saves a checkpoint.
MindSpore 2.10 cannot run this script on this machine: its dataset maps ask for 12 and 24 workers
and its preprocessing calls ``np.bool``, gone from the oracle venv's NumPy 1.26; so the loss has no
MindSpore reference and the test checks what a user checks after a run. MindSpore 2.10 loads the
checkpoint sporax writes into the zoo's Deeptext_VGG16 (all 87 parameters).
"""
import glob
import math
import os

import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_icdar

SMALL = {"img_width: 960": "img_width: 320", "img_height: 576": "img_height: 192",
         "feature_shapes: [[36, 60]]": "feature_shapes: [[12, 20]]", "num_bboxes: 64800": "num_bboxes: 7200",
         "rcnn_fc_out_channels: 4096": "rcnn_fc_out_channels: 256", "base_step: 7856": "base_step: 2",
         "total_epoch: 70": "total_epoch: 1", "warmup_step: 50": "warmup_step: 1", "use_coco: True": "use_coco: False",
         "expand_ratio: 0.3": "expand_ratio: 0.0", "num_bboxes_stage2: 2000": "num_bboxes_stage2: 600",
         "rpn_proposal_nms_pre: 2000": "rpn_proposal_nms_pre: 600",
         "rpn_proposal_nms_post: 2000": "rpn_proposal_nms_post: 600",
         "rpn_proposal_max_num: 2000": "rpn_proposal_max_num: 600", "rpn_nms_pre: 1000": "rpn_nms_pre: 600",
         "rpn_nms_post: 1000": "rpn_nms_post: 600", "rpn_max_num: 1000": "rpn_max_num: 600",
         "num_expected_pos_stage2: 128": "num_expected_pos_stage2: 64",
         "num_expected_amb_stage2: 128": "num_expected_amb_stage2: 64",
         "num_expected_neg_stage2: 640": "num_expected_neg_stage2: 320",
         "num_expected_total_stage2: 640": "num_expected_total_stage2: 320"}


@pytest.mark.slow
def test_deeptext_trains_and_saves_a_loadable_checkpoint(tmp_path):
    zoo = model_dir("cv", "DeepText")
    with open(os.path.join(zoo, "default_config.yaml")) as handle:
        config = handle.read()
    for old, new in SMALL.items():
        assert old in config, old
        config = config.replace(old, new)
    (tmp_path / "small.yaml").write_text(config)
    images, annotations = write_icdar(str(tmp_path / "icdar"))
    # train.py builds the MindRecord only when coco_root is a folder (any: use_coco is off)
    output = run_script(os.path.join(zoo, "train.py"), [
        f"--config_path={tmp_path / 'small.yaml'}", "--device_target=CPU", f"--imgs_path={images}",
        f"--annos_path={annotations}", f"--mindrecord_dir={tmp_path / 'mindrecord'}", f"--coco_root={tmp_path}",
        f"--output_path={tmp_path / 'out'}", "--epoch_size=1", "--save_checkpoint_epochs=1", "--batch_size=2"],
        cwd=str(tmp_path), timeout=1200)
    assert "Create dataset done! dataset_size =  2" in output, output[-3000:]
    losses = numbers_after(r"total_loss:", (tmp_path / "loss_0.log").read_text())
    assert len(losses) == 1 and math.isfinite(losses[0]) and 0.1 < losses[0] < 20.0, losses
    checkpoint = glob.glob(str(tmp_path / "ckpt_0" / "deeptext-1_2.ckpt"))  # save_checkpoint_path: "./"
    assert checkpoint, os.listdir(tmp_path)
    from sporax import load_checkpoint
    parameters = load_checkpoint(checkpoint[0])
    assert any(name.startswith("rpn_with_loss") for name in parameters) and len(parameters) > 40, sorted(parameters)[:20]

    # eval.py on that checkpoint: its own test MindRecord from the same images, two batches of two, then
    # precision/recall/F1 of the text class (an untrained detector finds no box: recall 0).
    output = run_script(os.path.join(zoo, "eval.py"), [
        f"--config_path={tmp_path / 'small.yaml'}", "--device_target=CPU", f"--imgs_path={images}",
        f"--annos_path={annotations}", f"--mindrecord_dir={tmp_path / 'mindrecord'}", f"--coco_root={tmp_path}",
        f"--checkpoint_path={checkpoint[0]}"], cwd=str(tmp_path), timeout=1200)
    os.remove(checkpoint[0])  # 226 MB
    assert "Iter 2 cost time" in output, output[-3000:]
    recall = numbers_after(r"class 1 precision is [0-9.]+%, recall is", output)
    assert len(recall) == 1 and 0.0 <= recall[0] <= 100.0, output[-3000:]
