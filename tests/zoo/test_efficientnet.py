"""EfficientNet-B0 (CIFAR-10 config): the zoo's train.py unchanged under sporax run on CIFAR binary files.

MindSpore 2.10 reads CIFAR-10 batch files only whole (10000 images each), and compiling the network takes it
minutes on CPU, so the test has no MindSpore-recorded loss; it checks what a user checks after a run. Then
eval.py on the checkpoint (MindSpore 2.10 loads that checkpoint into the zoo's efficientnet_b0: all 311
parameters).
"""
import os

import numpy as np
import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.scratch import load_written_checkpoint
from tests.zoo.synthetic import write_cifar10_binary


@pytest.mark.slow
def test_efficientnet_b0_cifar10_trains_and_saves_a_loadable_checkpoint(tmp_path):
    pytest.importorskip("yaml", reason="the EfficientNet config reader needs PyYAML")
    zoo = model_dir("cv", "Efficientnet", "efficientnet-b0")
    data = write_cifar10_binary(str(tmp_path / "cifar"), train_count=32, test_count=16)
    output = run_script(os.path.join(zoo, "train.py"),
                        [f"--config_path={os.path.join(zoo, 'efficientnet_b0_cifar10_config.yaml')}",
                         "--platform=CPU", "--device_target=CPU", "--workers=2", "--epochs=1", "--batch_size=16",
                         "--warmup_epochs=0", "--resize_value=32", f"--data_path={data}"], cwd=str(tmp_path))
    losses = numbers_after(r"epoch: 1 step: \d+, loss is", output)
    # On the CPU platform the script prints every step: two batches of 16.
    assert len(losses) == 2 and all(np.isfinite(losses)), output[-3000:]
    parameters = load_written_checkpoint(str(tmp_path / "ckpt_0" / "efficientnet_b0-1_2.ckpt"), output)
    # RMSProp's state is saved beside the weights under MindSpore's names.
    assert "mean_square.conv_stem.weight" in parameters and "moment.conv_stem.weight" in parameters
    output = run_script(os.path.join(zoo, "eval.py"),
                        [f"--config_path={os.path.join(zoo, 'efficientnet_b0_cifar10_config.yaml')}",
                         "--platform=CPU", "--device_target=CPU", "--workers=2", "--batch_size=16", "--resize_value=32",
                         f"--data_path={data}", f"--checkpoint={tmp_path / 'ckpt_0' / 'efficientnet_b0-1_2.ckpt'}"],
                        cwd=str(tmp_path))
    loss, top1, top5 = (numbers_after(rf"'{name}':", output) for name in ("Loss", "Top1-Acc", "Top5-Acc"))
    assert len(loss) == 1 and np.isfinite(loss[0]) and 0.0 <= top1[0] <= top5[0] <= 1.0, output[-3000:]
