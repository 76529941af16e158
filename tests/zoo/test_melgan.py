"""MelGAN: the zoo's train.py unchanged under sporax run on wav/mel pairs.

The script sets device_target="Ascend" itself (MindSpore 2.10 cannot run it on a CPU machine); sporax runs
it on its CPU backend with a warning, so the test has no MindSpore-recorded loss.
"""
import os

import numpy as np
import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.scratch import load_written_checkpoint
from tests.zoo.synthetic import write_melgan_pairs


@pytest.mark.slow
def test_melgan_trains_generator_and_discriminator_and_saves_a_checkpoint(tmp_path):
    pytest.importorskip("yaml", reason="the MelGAN config reader needs PyYAML")
    pytest.importorskip("scipy", reason="the MelGAN dataset reads wav files with scipy")
    zoo = model_dir("audio", "MELGAN")
    # The loader finds each mel file by replacing every 'wav' in the wav file's path: keep it out of the root.
    data = write_melgan_pairs(str(tmp_path / "pairs"))
    output = run_script(os.path.join(zoo, "train.py"),
                        [f"--data_path={data}", "--batch_size=1", "--epoch_size=1", "--train_length=8",
                         "--save_steps=2", f"--save_checkpoint_path={tmp_path / 'out'}"], cwd=str(tmp_path))
    generator, discriminator = numbers_after(r"loss_G=", output), numbers_after(r"loss_D=", output)
    assert len(generator) == 2 and len(discriminator) == 2, output[-3000:]
    assert all(np.isfinite(generator + discriminator)) and min(discriminator) > 0, output[-3000:]
    parameters = load_written_checkpoint(str(tmp_path / "out" / "melgan-1_2.ckpt"), output)
    assert len(parameters) > 100
