"""VGG16 (CIFAR-10 config, batch norm, AMP O2, sink mode): the zoo's train.py unchanged under sporax run on
CIFAR binary files. Its config exposes image_size only in the yaml (a list the CLI does not take), so
the test passes a copy of cifar10_config.yaml with 32x32 images through --config_path."""
import glob
import os

import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_cifar10_binary


@pytest.mark.slow
def test_vgg16_cifar10_trains(tmp_path):
    zoo = model_dir("cv", "VGG", "vgg16")
    write_cifar10_binary(str(tmp_path / "cifar" / "cifar-10-batches-bin"))
    with open(os.path.join(zoo, "cifar10_config.yaml")) as handle:
        config = handle.read()
    assert "image_size: [224,224]" in config
    (tmp_path / "cifar10_32.yaml").write_text(config.replace("image_size: [224,224]", "image_size: [32,32]"))
    output = run_script(os.path.join(zoo, "train.py"),
                        [f"--config_path={tmp_path / 'cifar10_32.yaml'}", f"--data_dir={tmp_path / 'cifar'}",
                         "--device_target=CPU", "--max_epoch=3", "--batch_size=16", "--warmup_epochs=0",
                         "--lr_init=0.01", "--lr_max=0.05", "--ckpt_interval=3"], cwd=str(tmp_path))
    losses = numbers_after(r"loss is", output)
    assert len(losses) == 3 and losses[-1] < 0.8 * losses[0], output[-3000:]
    assert glob.glob(str(tmp_path / "outputs" / "**" / "*.ckpt"), recursive=True)
