"""Tacotron2: the zoo's train.py unchanged under sporax run on a preprocessed LJSpeech-style HDF5 file.

The script accepts only device_target Ascend or GPU (MindSpore 2.10 cannot run it on CPU); sporax runs its
Ascend path on the CPU backend with a warning, so the test has no MindSpore-recorded loss. The HDF5 file is
written directly in the layout the zoo's generate_hdf5.py produces (that script needs librosa).
"""
import os

import numpy as np
import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.scratch import load_written_checkpoint
from tests.zoo.synthetic import write_tacotron2_hdf5


@pytest.mark.slow
def test_tacotron2_trains_one_step_and_saves_a_loadable_checkpoint(tmp_path):
    for module in ("h5py", "unidecode", "inflect", "yaml"):
        pytest.importorskip(module, reason=f"the Tacotron2 scripts import {module} (a requirement of the model zoo)")
    zoo = model_dir("audio", "Tacotron2")
    data = write_tacotron2_hdf5(str(tmp_path / "data" / "ljdataset.hdf5"))
    output = run_script(os.path.join(zoo, "train.py"),
                        [f"--config_path={os.path.join(zoo, 'ljspeech_config.yaml')}", f"--dataset_path={data}",
                         "--batch_size=2", "--epoch_num=1", "--warmup_epochs=1"], cwd=str(tmp_path))
    # LossCallBack prints (loss, loss scale); the mel terms carry the script's penalty p = 10 (a factor 100).
    losses = numbers_after(r"outputs are \(Tensor\(shape=\[\], dtype=Float\d+, value=", output)
    assert len(losses) == 1 and np.isfinite(losses[0]) and losses[0] > 0, output[-3000:]
    parameters = load_written_checkpoint(str(tmp_path / "ckpt_0" / "tacotron2-1_1.ckpt"), output)
    assert any("embedding" in name for name in parameters), sorted(parameters)[:5]
