"""ResNet-18 (CIFAR-10 config): the zoo's train.py and eval.py unchanged under sporax run, on CIFAR binary files."""
import glob
import os

import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_cifar10_binary


@pytest.mark.slow
def test_resnet18_cifar10_trains_and_evaluates(tmp_path):
    zoo = model_dir("cv", "ResNet")
    data = write_cifar10_binary(str(tmp_path / "cifar"))
    config = os.path.join(zoo, "config", "resnet18_cifar10_config.yaml")
    common = [f"--config_path={config}", f"--data_path={data}", "--device_target=CPU", "--batch_size=16",
              "--train_image_size=32", "--eval_image_size=32"]
    output = run_script(os.path.join(zoo, "train.py"),
                        common + ["--epoch_size=4", "--warmup_epochs=0", "--loss_scale=1", "--lr_max=0.4",
                                  "--save_checkpoint_epochs=4", f"--output_dir={tmp_path / 'out'}"],
                        cwd=str(tmp_path))
    losses = numbers_after(r"epoch: \[\d+/4\] loss:", output)
    assert len(losses) == 4 and losses[-1] < 0.75 * losses[0], output[-3000:]
    checkpoint = glob.glob(str(tmp_path / "out" / "**" / "*.ckpt"), recursive=True)
    assert len(checkpoint) == 1
    output = run_script(os.path.join(zoo, "eval.py"), common + [f"--checkpoint_file_path={checkpoint[0]}"],
                        cwd=str(tmp_path))
    assert numbers_after(r"'top_1_accuracy':", output), output[-3000:]
