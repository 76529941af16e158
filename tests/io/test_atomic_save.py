"""Checkpoint writes are atomic: SIGKILL at any point leaves the old file or the new one."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np

from sporax import Tensor
from sporax.io import load_checkpoint, save_checkpoint

WRITER = textwrap.dedent("""
    import sys
    import numpy as np
    from sporax.io.checkpoint import save_checkpoint
    path = sys.argv[1]
    print("ready", flush=True)
    for step in range(50):
        save_checkpoint({"w": np.full((512, 1024), step, np.float32)}, path,
                        append_dict={"step": step})
""")


def test_sigkill_during_repeated_saves_never_corrupts(tmp_path):
    path = str(tmp_path / "model.ckpt")
    save_checkpoint({"w": Tensor(np.full((512, 1024), -1, np.float32))}, path,
                       append_dict={"step": -1})
    rng = np.random.default_rng(0)
    for _ in range(4):
        process = subprocess.Popen([sys.executable, "-c", WRITER, path], stdout=subprocess.PIPE, text=True)
        assert process.stdout.readline().strip() == "ready"
        time.sleep(float(rng.uniform(0.0, 0.4)))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        loaded = load_checkpoint(path)
        step = int(loaded["step"].asnumpy())
        weights = loaded["w"].asnumpy()
        assert weights.shape == (512, 1024)
        assert np.all(weights == step), "a checkpoint mixed two saves"
    leftovers = [name for name in os.listdir(tmp_path) if not name.endswith(".ckpt")]
    assert leftovers == [], "a later save left the temporary files of killed ones"
