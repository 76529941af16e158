"""ShuffleNetV1: the zoo's train.py unchanged under sporax run on an ImageFolder tree.

MindSpore 2.10 itself refuses this script on a machine with fewer than 8 CPU threads (its dataset maps use
``num_parallel_workers=8``); sporax runs it there, so this test has no MindSpore-recorded loss. After
training, eval.py and export.py on the checkpoint: MindSpore 2.10 loads both the checkpoint and the MINDIR
sporax writes, and on one input gives the same four logits (to 1e-5) from each as sporax does.
"""
import os

import numpy as np
import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.scratch import load_written_checkpoint
from tests.zoo.synthetic import write_image_folder


@pytest.mark.slow
def test_shufflenetv1_trains_and_saves_a_loadable_checkpoint(tmp_path):
    pytest.importorskip("yaml", reason="the ShuffleNet config reader needs PyYAML")
    zoo = model_dir("cv", "ShuffleNet", "shufflenetv1")
    data = write_image_folder(str(tmp_path / "train"), classes=4, per_class=2, size=48)
    output = run_script(os.path.join(zoo, "train.py"),
                        ["--device_target=CPU", "--model_size=0.5x", "--num_classes=4", "--epoch_size=1",
                         "--batch_size=4", "--amp_level=O0", "--loss_scale=1", "--warmup_epochs=0", "--lr_max=0.01",
                         f"--train_dataset_path={data}", f"--save_ckpt_path={tmp_path / 'out'}"], cwd=str(tmp_path))
    losses = numbers_after(r"loss is", output)
    assert losses and all(np.isfinite(losses)) and 0.1 < losses[0] < 20.0, output[-3000:]
    parameters = load_written_checkpoint(str(tmp_path / "out" / "shufflenetv1-1_2.ckpt"), output)
    assert parameters["classifier.weight"].shape == (4, 480), parameters["classifier.weight"].shape

    checkpoint = f"--ckpt_path={tmp_path / 'out' / 'shufflenetv1-1_2.ckpt'}"
    common = ["--device_target=CPU", "--model_size=0.5x", "--num_classes=4", checkpoint]
    output = run_script(os.path.join(zoo, "eval.py"), common + ["--batch_size=4", f"--eval_dataset_path={data}"],
                        cwd=str(tmp_path))
    loss, top1, top5 = (numbers_after(rf"'{name}':", output) for name in ("Loss", "Top_1_Acc", "Top_5_Acc"))
    assert len(loss) == 1 and np.isfinite(loss[0]) and 0.0 <= top1[0] <= 1.0, output[-3000:]
    assert top5 == [1.0]  # four classes: the true one is always among the top five
    output = run_script(os.path.join(zoo, "export.py"), common + ["--batch_size=1", f"--file_name={tmp_path / 'net'}"],
                        cwd=str(tmp_path))
    from sporax import Tensor, load, nn
    graph = nn.GraphCell(load(str(tmp_path / "net.mindir")))
    assert graph(Tensor(np.zeros((1, 3, 224, 224), np.float32))).shape == (1, 4)
