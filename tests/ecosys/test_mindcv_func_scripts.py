"""mindcv's functional entry points (train_with_func.py, validate_with_func.py, examples/finetune/finetune.py)
run unchanged under ``sporax run`` on a tiny ImageFolder dataset.

Expected values were recorded with MindSpore 2.10 (CPU) running the same scripts with the same arguments on
the same images (``write_image_folder``) and a copy of configs/resnet/resnet_18_gpu.yaml whose crop takes the
whole image (deterministic data). MindSpore also read the checkpoint sporax's train_with_func.py wrote:
validate_with_func.py printed the same Acc@1 and average loss as sporax (to 1e-6).
"""
import os
import re

import pytest

from tests.ecosys.mindcv_scripts import MINDCV, logged_losses, run_mindcv_script, write_image_folder

# train_with_func.py (PyNative, amp O0, lr 0.01, 6 steps of batch 4, unshuffled, 3 classes): MindSpore 2.10's
# losses. The first two steps agree to 1e-5 on sporax; later ones drift apart (momentum SGD
# on noise images amplifies float differences), so only their range is checked.
MINDSPORE_FUNC_LOSSES = [3.058953, 0.316248, 8.451988, 5.988204, 4.548105, 3.422948]


def _whole_image_config(tmp_path):
    """configs/resnet/resnet_18_gpu.yaml with scale and ratio (1, 1) (mindcv's argparse takes those as
    ``type=tuple``, so only a yaml file can set them)."""
    source = os.path.join(MINDCV, "configs", "resnet", "resnet_18_gpu.yaml")
    if not os.path.isfile(source):
        pytest.skip(f"mindcv is not available at {MINDCV} (it lives in ../shared/external/ecosys)")
    with open(source) as handle:
        lines = [("scale: [1.0, 1.0]\n" if line.startswith("scale:") else
                  "ratio: [1.0, 1.0]\n" if line.startswith("ratio:") else line) for line in handle]
    path = tmp_path / "resnet_18_whole_image.yaml"
    path.write_text("".join(lines))
    return str(path)


def _arguments(tmp_path):
    return ["--config", _whole_image_config(tmp_path), "--data_dir", write_image_folder(str(tmp_path / "data")),
            "--dataset_download", "False", "--batch_size", "4", "--num_parallel_workers", "1", "--image_resize",
            "32", "--num_classes", "3", "--device_target", "CPU", "--amp_level", "O0", "--lr", "0.01",
            "--shuffle", "False", "--distribute", "False", "--log_interval", "1"]


@pytest.mark.slow
def test_train_with_func_then_validate_with_func_on_its_checkpoint(tmp_path):
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
