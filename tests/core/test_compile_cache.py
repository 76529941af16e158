"""The persistent compilation cache: where it lives, switching it, and reuse across processes."""
import os
import subprocess
import sys
import textwrap

import jax
import pytest

import sporax as ms
from sporax.core import compile_cache

_SRC = os.path.join(os.path.dirname(__file__), "..", "..", "src")

# One GRAPH-mode LeNet5 train step: prints the two losses and whether the step compiled.
_SCRIPT = textwrap.dedent("""
    import numpy as np
    from jax._src import monitoring
    import sporax as ms
    from sporax import nn
    from sporax.core import compile_cache
    from sporax.demo.lenet import LeNet5

    events = []
    monitoring.register_event_listener(lambda name, **kwargs: events.append(name))
    ms.set_seed(1)
    ms.set_context(mode=ms.GRAPH_MODE)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    x = ms.Tensor(np.random.default_rng(0).random((8, 1, 32, 32)).astype(np.float32))
    y = ms.Tensor(np.arange(8).astype(np.int32) % 10)
    losses = [float(step(x, y).asnumpy()) for _ in range(2)]
    print(",".join(map(repr, losses)), compile_cache.folder(), "/jax/compilation_cache/cache_hits" in events)
""")


def _run(code, **env):
    environment = {**os.environ, "PYTHONPATH": os.path.abspath(_SRC), "JAX_PLATFORMS": "cpu", **env}
    environment.pop("JAX_COMPILATION_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.split()


def test_second_run_reuses_the_compiled_step_and_trains_identically(tmp_path):
    folder = str(tmp_path / "cache")
    # JAX stores only programs that took at least 1 s to compile; on a quiet machine this small step
    # compiles faster, so the threshold is lowered to make the test independent of machine speed.
    fast = {"JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0"}
    losses, used, hit = _run(_SCRIPT, SPORAX_COMPILATION_CACHE_DIR=folder, **fast)
    assert used == folder and hit == "False"
    entries = sorted(os.listdir(folder))
    assert any(name.startswith("jit_") for name in entries)
    again, _, hit_again = _run(_SCRIPT, SPORAX_COMPILATION_CACHE_DIR=folder, **fast)
    assert hit_again == "True"
    assert again == losses  # bit-identical losses from the cached executable
    assert sorted(os.listdir(folder)) == entries  # nothing compiled afresh


def test_default_folder_follows_xdg_cache_home_and_can_be_switched_off(tmp_path):
    code = "from sporax.core import compile_cache; import sporax; print(compile_cache.folder())"
    environment = {"XDG_CACHE_HOME": str(tmp_path)}
    clean = {k: v for k, v in os.environ.items() if k != "SPORAX_COMPILATION_CACHE_DIR"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**clean, **environment, "PYTHONPATH": os.path.abspath(_SRC)})
    assert done.stdout.split() == [os.path.join(str(tmp_path), "sporax", "jax-cache")], done.stderr[-2000:]
    assert _run(code, SPORAX_COMPILATION_CACHE_DIR="off") == ["None"]


def test_set_context_moves_and_switches_off_the_cache(tmp_path):
    before = (jax.config.jax_compilation_cache_dir, jax.config.jax_enable_compilation_cache)
    try:
        ms.set_context(compile_cache_path=str(tmp_path))
        assert compile_cache.folder() == str(tmp_path)
        ms.set_context(enable_compile_cache=False)
        assert compile_cache.folder() is None
        assert ms.get_context("enable_compile_cache") is False
        with pytest.raises(TypeError, match="enable_compile_cache"):
            ms.set_context(enable_compile_cache="yes")
    finally:
        ms.set_context(enable_compile_cache=True, compile_cache_path="")
        compile_cache.use(before[0] if before[1] else None)


_THRESHOLD = "import jax, sporax; print(jax.config.jax_persistent_cache_min_compile_time_secs)"


def test_small_train_steps_are_cached_unless_the_user_chose_a_threshold(tmp_path):
    # JAX's 1 s threshold would leave a LeNet5 step that compiles in 0.8 s out of the cache.
    folder = str(tmp_path / "cache")
    assert _run(_THRESHOLD, SPORAX_COMPILATION_CACHE_DIR=folder) == [str(compile_cache.MIN_COMPILE_SECONDS)]
    chosen = _run(_THRESHOLD, SPORAX_COMPILATION_CACHE_DIR=folder, JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="2")
    assert chosen == ["2.0"]
