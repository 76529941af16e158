"""Arcface: the zoo's train.py unchanged under sporax run on an ImageFolder of 112-pixel faces.

The script accepts only ``--device_target`` GPU or Ascend (argparse choices), so MindSpore 2.10's CPU
build cannot run it at all; sporax runs the GPU target on its CPU backend (with a warning). The
network is the full iresnet100 (its fully connected layer fixes the 112-pixel input), so one epoch
of 4 steps writes a ~780 MB checkpoint: the test loads its network weights and removes it.
"""
import glob
import math
import os

import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_image_folder


@pytest.mark.slow
def test_arcface_trains_an_epoch_and_writes_a_loadable_checkpoint(tmp_path):
    zoo = model_dir("cv", "Arcface")
    data = write_image_folder(str(tmp_path / "faces"), classes=4, per_class=2, size=112)
    output = run_script(os.path.join(zoo, "train.py"), [
        "--device_target=GPU", "--device_num=1", f"--data_url={data}", f"--train_url={tmp_path / 'out'}",
        "--epochs=1", "--num_classes=4", "--batch_size=2"], cwd=str(tmp_path), env={"DEVICE_ID": "0"})
    losses = numbers_after(r"loss is", output)
    assert len(losses) == 1 and math.isfinite(losses[0]) and losses[0] > 0, output[-3000:]
    checkpoint = glob.glob(str(tmp_path / "out" / "ArcFace--1_4.ckpt"))
    assert checkpoint, os.listdir(tmp_path / "out")
    try:
        from sporax import load_checkpoint
        weights = load_checkpoint(checkpoint[0], choice_func=lambda name: not name.startswith(("accum.", "stat.")))
        assert tuple(weights["fc.weight"].shape) == (512, 512 * 7 * 7)
        assert tuple(weights["mp_weight"].shape) == (4, 512)  # PartialFC's class centres, one per class
    finally:
        os.remove(checkpoint[0])
