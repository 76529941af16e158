"""GPT: the zoo's GPT modules (parallel-transformer layers, float-status loss scaling, MindRecord input) train
under sporax run as its train.py drives them, with a tiny config (see gpt_driver.py for why not train.py)."""
import os

import pytest

from tests.zoo.runner import SRC, model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_token_mindrecord

DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpt_driver.py")


@pytest.mark.slow
def test_gpt_tiny_trains_on_mindrecord(tmp_path):
    zoo = model_dir("nlp", "GPT")
    data = write_token_mindrecord(str(tmp_path / "data"), count=16)
    output = run_script(DRIVER, [data, "4"], cwd=str(tmp_path), env={"PYTHONPATH": os.pathsep.join([SRC, zoo])})
    losses = numbers_after(r"loss is", output)
    assert len(losses) == 4 and losses[-1] < 0.8 * losses[0], output[-3000:]
