"""DeepFM (Criteo): the zoo's train.py (with its AUC eval callback) and eval.py unchanged under sporax run,
reading the MindRecord shards its preprocessing writes (here written with mindspore.mindrecord.FileWriter)."""
import glob
import os

import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_criteo_mindrecord


@pytest.mark.slow
def test_deepfm_trains_and_evaluates_on_mindrecord(tmp_path):
    pytest.importorskip("pandas", reason="the DeepFM scripts import pandas (a requirement of the model zoo)")
    zoo = model_dir("recommend", "DeepFM")
    data = write_criteo_mindrecord(str(tmp_path / "criteo"))
    common = [f"--config_path={os.path.join(zoo, 'default_config.yaml')}", f"--dataset_path={data}",
              "--data_vocab_size=200", "--batch_size=1000", "--data_emb_dim=8", "--device_target=CPU"]
    output = run_script(os.path.join(zoo, "train.py"),
                        common + ["--train_epochs=3", "--learning_rate=0.01", f"--ckpt_path={tmp_path / 'ckpt'}",
                                  f"--output_path={tmp_path / 'out'}"], cwd=str(tmp_path))
    losses = numbers_after(r"loss is", output)
    assert len(losses) == 3 and losses[-1] < 0.7 * losses[0], output[-3000:]
    assert (tmp_path / "loss.log").read_text().count("loss is") == 3
    checkpoint = glob.glob(str(tmp_path / "ckpt" / "deepfm-3_11.ckpt"))
    assert checkpoint, os.listdir(tmp_path / "ckpt")
    output = run_script(os.path.join(zoo, "eval.py"), common + [f"--checkpoint_path={checkpoint[0]}"],
                        cwd=str(tmp_path))
    auc = numbers_after(r"AUC:", output)
    assert auc and auc[-1] > 0.7, output[-3000:]
