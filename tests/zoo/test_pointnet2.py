"""PointNet++ (ModelNet10 classification): the zoo's train.py unchanged under sporax run on normal-resampled files.

The script accepts only --platform Ascend or GPU (MindSpore 2.10 cannot run it on CPU); sporax runs the GPU
path on its CPU backend with a warning, so the test has no MindSpore-recorded loss. Then eval.py on the
checkpoint (MindSpore 2.10 loads that checkpoint into the zoo's PointNet2: all 59 parameters).
"""
import os

import numpy as np
import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.scratch import load_written_checkpoint
from tests.zoo.synthetic import write_modelnet_resampled


@pytest.mark.slow
def test_pointnet2_classification_trains_and_saves_a_loadable_checkpoint(tmp_path):
    zoo = model_dir("cv", "PointNet2")
    data = write_modelnet_resampled(str(tmp_path / "modelnet"))
    output = run_script("train.py", ["--platform=GPU", "--num_category=10", "--batch_size=2", "--epoch=1",
                                     f"--data_path={data}", f"--save_dir={tmp_path / 'save'}"], cwd=zoo)
    losses = numbers_after(r"loss is", output)
    # Ten classes: an untrained classifier's NLL is near ln(10) = 2.3.
    assert len(losses) == 2 and all(np.isfinite(losses)) and 1.0 < losses[0] < 4.0, output[-3000:]
    parameters = load_written_checkpoint(str(tmp_path / "save" / "ckpt_pointnet2-1_2.ckpt"), output)
    assert any(name.startswith("sa1.") for name in parameters), sorted(parameters)[:5]
    checkpoint = tmp_path / "save" / "ckpt_pointnet2-1_2.ckpt"
    output = run_script(os.path.join(zoo, "eval.py"), ["--platform=GPU", "--num_category=10", "--batch_size=2",
                                                       f"--data_path={data}", f"--pretrained_ckpt={checkpoint}"],
                        cwd=str(tmp_path))
    accuracy = numbers_after(r"result : \{'Accuracy':", output)
    assert len(accuracy) == 1 and 0.0 <= accuracy[0] <= 1.0 and "Eval done!" in output, output[-3000:]
