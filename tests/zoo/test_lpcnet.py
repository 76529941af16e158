"""LPCNet: the zoo's eval.py unchanged under sporax run (its GRAPH_MODE encoder once, then the decoder cell
once per sample, 463 calls for three feature frames) on a checkpoint whose output layer always samples
the zero u-law code, so the synthesised speech is exact silence and the printed MSE is the reference's
mean square. eval.py (like train.py) asks for Ascend, which MindSpore 2.10 refuses on CPU, so there is no
MindSpore-recorded run; sporax runs the Ascend request on the CPU backend with a warning.

train.py is not run: its GRU unrolls a Python while loop over 2400 time steps (15 feature frames of 160
samples, constants in src/dataloader.py), which takes longer than ten minutes to trace on a CPU.
"""
import os

import numpy as np
import pytest

from tests.zoo.runner import SRC, model_dir, numbers_after, run_script

MAKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lpcnet_silent_checkpoint.py")


@pytest.mark.slow
def test_lpcnet_eval_synthesises_silence_and_reports_its_mse(tmp_path):
    zoo = model_dir("audio", "LPCNet")
    checkpoint = str(tmp_path / "lpcnet.ckpt")
    run_script(MAKER, [checkpoint], cwd=str(tmp_path), env={"PYTHONPATH": os.pathsep.join([SRC, zoo])})
    rng = np.random.default_rng(0)
    (tmp_path / "test").mkdir()
    (tmp_path / "out").mkdir()
    features = (rng.standard_normal((3, 36)) * 0.3).astype(np.float32)  # 3 frames of 36 features
    features[:, 18] = 0.2  # pitch feature: period (.1 + 50 * 0.2 + 100) = 110
    features.tofile(tmp_path / "test" / "a.f32")
    reference = (rng.standard_normal(480) * 1000).astype(np.int16)
    reference.tofile(tmp_path / "test" / "a.s16")
    output = run_script(os.path.join(zoo, "eval.py"), [str(tmp_path / "test"), str(tmp_path / "out"), checkpoint],
                        cwd=zoo)
    speech = np.fromfile(tmp_path / "out" / "a.pcm", dtype=np.int16)
    assert speech.shape == (3 * 160 - 17,)  # the first frame skips ORDER + 1 samples
    assert not speech.any(), speech[np.nonzero(speech)][:10]
    mse = numbers_after(r"Evaluated MSE is:", output)
    assert len(mse) == 1, output[-3000:]
    np.testing.assert_allclose(mse[0], np.mean((reference[:speech.size] / 32767.0) ** 2), rtol=1e-12)
