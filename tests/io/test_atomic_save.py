"""Checkpoint writes are atomic: SIGKILL at any point leaves the old file or the new one."""
import os
import subprocess
import sys
import textwrap

import numpy as np

from sporax import Tensor
from sporax.io import load_checkpoint, save_checkpoint

# One process imports sporax (~4 CPU s) once; for each delay (seconds) on stdin it forks a writer, SIGKILLs it after
# the delay and answers "killed" once it reaped it. The writers use NumPy and files only, not JAX.
WRITER = textwrap.dedent("""
    import os, signal, sys, time, warnings
    import numpy as np
    from sporax.io.checkpoint import save_checkpoint
    warnings.simplefilter("ignore", RuntimeWarning)  # JAX's note that fork() follows its threads
    path = sys.argv[1]
    for delay in sys.stdin:
        writer = os.fork()
        if writer == 0:
            for step in range(50):
                save_checkpoint({"w": np.full((512, 1024), step, np.float32)}, path, append_dict={"step": step})
            os._exit(0)
        time.sleep(float(delay))
        os.kill(writer, signal.SIGKILL)
        os.waitpid(writer, 0)
        print("killed", flush=True)
""")


def test_sigkill_during_repeated_saves_never_corrupts(tmp_path):
    path = str(tmp_path / "model.ckpt")
    save_checkpoint({"w": Tensor(np.full((512, 1024), -1, np.float32))}, path,
                       append_dict={"step": -1})
    rng = np.random.default_rng(0)
    process = subprocess.Popen([sys.executable, "-c", WRITER, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True)
    try:
        for _ in range(4):
            process.stdin.write(f"{rng.uniform(0.0, 0.4)}\n")
            process.stdin.flush()
            assert process.stdout.readline().strip() == "killed"
            loaded = load_checkpoint(path)
            step = int(loaded["step"].asnumpy())
            weights = loaded["w"].asnumpy()
            assert weights.shape == (512, 1024)
            assert np.all(weights == step), "a checkpoint mixed two saves"
    finally:
        process.stdin.close()
        process.wait(timeout=60)
    leftovers = [name for name in os.listdir(tmp_path) if not name.endswith(".ckpt")]
    assert leftovers == [], "a later save left the temporary files of killed ones"
