"""VGG16 (CIFAR-10 config, batch norm, AMP O2, sink mode asked: device_target CPU runs every step, as MindSpore
2.10 does): the zoo's train.py unchanged under sporax run on CIFAR binary files. Its config exposes image_size
only in the yaml (a list the CLI does not take), so the test passes a copy of cifar10_config.yaml with 32x32
images through --config_path. Then eval.py on the checkpoint (cifar-10-verify-bin): MindSpore 2.10 loads that
checkpoint into the zoo's vgg16 and gives the same logits (to 1e-4) and accuracy as sporax's eval.py prints.
(MindSpore's own Cifar10Dataset refuses files of fewer than 10000 images, so its train.py does not run on this
data.)"""
import glob
import os
import shutil

import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_cifar10_binary


@pytest.mark.slow
def test_vgg16_cifar10_trains(tmp_path):
    zoo = model_dir("cv", "VGG", "vgg16")
    write_cifar10_binary(str(tmp_path / "cifar" / "cifar-10-batches-bin"))
    os.makedirs(tmp_path / "cifar" / "cifar-10-verify-bin")
    shutil.copy(tmp_path / "cifar" / "cifar-10-batches-bin" / "test_batch.bin", tmp_path / "cifar" / "cifar-10-verify-bin")
    with open(os.path.join(zoo, "cifar10_config.yaml")) as handle:
        config = handle.read()
    assert "image_size: [224,224]" in config
    (tmp_path / "cifar10_32.yaml").write_text(config.replace("image_size: [224,224]", "image_size: [32,32]"))
    output = run_script(os.path.join(zoo, "train.py"),
                        [f"--config_path={tmp_path / 'cifar10_32.yaml'}", f"--data_dir={tmp_path / 'cifar'}",
                         "--device_target=CPU", "--max_epoch=3", "--batch_size=16", "--warmup_epochs=0",
                         "--lr_init=0.01", "--lr_max=0.05", "--ckpt_interval=3"], cwd=str(tmp_path))
    losses = numbers_after(r"loss is", output)
    per_epoch = len(losses) // 3  # LossMonitor prints every step: device_target CPU does not sink
    assert len(losses) == 3 * per_epoch and losses[-1] < 0.8 * losses[per_epoch - 1], output[-3000:]
    checkpoint = glob.glob(str(tmp_path / "outputs" / "**" / "*.ckpt"), recursive=True)
    assert len(checkpoint) == 1
    output = run_script(os.path.join(zoo, "eval.py"),
                        [f"--config_path={tmp_path / 'cifar10_32.yaml'}", f"--data_dir={tmp_path / 'cifar'}",
                         "--device_target=CPU", "--batch_size=16", f"--pre_trained={checkpoint[0]}"], cwd=str(tmp_path))
    accuracy = numbers_after(r"result:\s+\{'acc':", output)
    assert len(accuracy) == 1 and 0.0 <= accuracy[0] <= 1.0, output[-3000:]
    assert accuracy[0] * 32 == round(accuracy[0] * 32)  # a count of the 32 verify images (2 batches of 16)
