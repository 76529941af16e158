"""LSTM (IMDB sentiment): the zoo's train.py and eval.py unchanged under sporax run, reading the MindRecord
files and weight.txt its preprocessing step writes (written here with mindspore.mindrecord.FileWriter)."""
import glob
import os

import pytest

from tests.zoo.runner import model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_imdb_mindrecord


@pytest.mark.slow
def test_lstm_trains_and_evaluates_on_mindrecord(tmp_path):
    pytest.importorskip("gensim", reason="the LSTM scripts import gensim (a requirement of the model zoo)")
    zoo = model_dir("nlp", "LSTM")
    data = write_imdb_mindrecord(str(tmp_path / "preprocess"), embed_size=16)
    common = [f"--config_path={os.path.join(zoo, 'default_config.yaml')}", f"--preprocess_path={data}",
              "--embed_size=16", "--num_hiddens=16", "--num_layers=1", "--batch_size=8"]
    output = run_script(os.path.join(zoo, "train.py"),
                        common + ["--num_epochs=3", "--save_checkpoint_steps=8", f"--ckpt_path={tmp_path / 'ckpt'}",
                                  "--learning_rate=0.05", "--run_eval=False"], cwd=str(tmp_path))
    losses = numbers_after(r"loss is", output)
    assert len(losses) == 24, output[-3000:]
    assert sum(losses[-8:]) / 8 < 0.9 * sum(losses[:8]) / 8, losses
    checkpoint = sorted(glob.glob(str(tmp_path / "ckpt" / "lstm-3_8.ckpt")))
    assert checkpoint, os.listdir(tmp_path / "ckpt")
    output = run_script(os.path.join(zoo, "eval.py"), common + [f"--ckpt_file={checkpoint[0]}"], cwd=str(tmp_path))
    accuracy = numbers_after(r"'acc':", output)
    assert accuracy and accuracy[-1] > 0.5, output[-3000:]
