"""mindcv's functional entry points (train_with_func.py, validate_with_func.py, examples/finetune/finetune.py)
run unchanged under ``sporax run`` on a tiny ImageFolder dataset.

Expected values were recorded with MindSpore 2.10 (CPU) running the same scripts with the same arguments on
the same images (``write_image_folder``) and a copy of configs/resnet/resnet_18_gpu.yaml whose crop takes the
whole image, without flips or colour jitter (deterministic data). MindSpore also read the checkpoint sporax's
train_with_func.py wrote: validate_with_func.py printed the same Acc@1 and average loss as sporax (to 1e-6).
"""
import os
import re

import pytest

from tests.ecosys.mindcv_scripts import logged_losses, run_mindcv_script, whole_image_config, write_image_folder

# train_with_func.py (PyNative, amp O0, lr 0.01, 6 steps of batch 4, unshuffled, 3 classes): MindSpore 2.10's
# losses. The first two steps agree to 1e-5 on sporax; later ones drift apart (momentum SGD on noise images
# amplifies float differences), so only their range is checked.
MINDSPORE_FUNC_LOSSES = [3.058953, 0.316248, 8.451988, 5.988204, 4.548105, 3.422948]


def _arguments(tmp_path):
    config = whole_image_config(tmp_path)
    with open(config, "a") as handle:
        handle.write("color_jitter: null\n")  # the yaml is the only way to turn the random jitter off
    return ["--config", config, "--hflip", "0", "--data_dir", write_image_folder(str(tmp_path / "data")),
            "--dataset_download", "False", "--batch_size", "4", "--num_parallel_workers", "1", "--image_resize",
            "32", "--num_classes", "3", "--device_target", "CPU", "--amp_level", "O0", "--lr", "0.01",
            "--shuffle", "False", "--distribute", "False", "--log_interval", "1"]


@pytest.mark.slow
def test_train_with_func_then_validate_with_func_and_finetune_from_its_checkpoint(tmp_path):
    arguments = _arguments(tmp_path)
    checkpoints = str(tmp_path / "ckpt")
    output = run_mindcv_script("train_with_func.py", arguments + [
        "--mode", "1", "--epoch_size", "1", "--ckpt_save_dir", checkpoints])
    losses = logged_losses(output)
    assert len(losses) == len(MINDSPORE_FUNC_LOSSES), output[-3000:]
    assert losses[:2] == pytest.approx(MINDSPORE_FUNC_LOSSES[:2], rel=1e-4)
    assert all(0.05 < loss < 20.0 for loss in losses), losses
    assert {"resnet18-1_6.ckpt", "resnet18_optim.ckpt"} <= set(os.listdir(checkpoints))

    output = run_mindcv_script("validate_with_func.py", arguments + [
        "--ckpt_path", os.path.join(checkpoints, "resnet18-1_6.ckpt")])
    line = re.findall(r"Acc@1: ([0-9.]+)%, Acc@5: ([0-9.]+)%, Avg loss: ([0-9.]+)", output)
    assert len(line) == 1, output[-3000:]
    top1, top5, _ = (float(value) for value in line[0])
    # 3 classes of 4 validation images each: Acc@1 is a multiple of 1/12, Acc@5 covers every class.
    assert top5 == 100.0 and round(top1 * 12 / 100, 3) == round(top1 * 12 / 100)

    # examples/finetune/finetune.py resumes from that checkpoint (GRAPH mode, jit_level O2): the file name
    # makes it start at epoch 2, and with --epoch_size 2 it trains epochs 2 and 3, validating after each.
    # Its validation callback calls model.eval mid-training; MindSpore 2.10 trains epoch 3 in train mode
    # again (first loss 4.59 from MindSpore's own checkpoint); left in inference mode, BatchNorm's moving
    # statistics gave a first loss of 3742 and then NaN.
    output = run_mindcv_script(os.path.join("examples", "finetune", "finetune.py"), arguments + [
        "--mode", "0", "--epoch_size", "2", "--val_while_train", "True", "--dataset_sink_mode", "False",
        "--ckpt_path", os.path.join(checkpoints, "resnet18-1_6.ckpt"), "--ckpt_save_dir", str(tmp_path / "tuned")])
    losses = logged_losses(output)
    assert len(losses) == 12 and all(0.01 < loss < 50.0 for loss in losses), losses
    assert len(re.findall(r"Validation Top_1_Accuracy: [0-9.]+%", output)) == 2, output[-3000:]
