"""sporax's process set-up: each setting made once on import, each with its opt-out (XLA:CPU flags,
glibc malloc options, x64, the compilation cache, warning filters), and the settings made on request."""
import os
import re
import subprocess
import sys
import textwrap
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax as ms
from sporax.core import process_setup

_SRC = os.path.join(os.path.dirname(__file__), "..", "..", "src")
_LIBC = process_setup.glibc()
_NO_MALLINFO = _LIBC is None or not hasattr(_LIBC, "mallinfo2")
_GLIBC_ONLY = pytest.mark.skipif(_NO_MALLINFO, reason="the malloc options concern glibc on Linux (mallinfo2: glibc >= 2.33)")


# --- XLA:CPU flags ------------------------------------------------------------------------------

FLAG = "--xla_cpu_experimental_ynn_fusion_type"


def _configured(monkeypatch, flags=None, switch=None, release=(0, 10)):
    for name, value in (("XLA_FLAGS", flags), ("SPORAX_XLA_CPU_FLAGS", switch)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    monkeypatch.setattr(process_setup, "_jaxlib_release", lambda: release)
    process_setup.configure_xla_cpu_flags()
    return os.environ.get("XLA_FLAGS")


def test_default_is_appended_to_the_users_other_flags(monkeypatch):
    assert _configured(monkeypatch) == f"{FLAG}=individual_dot,reduce"
    assert _configured(monkeypatch, "--xla_cpu_use_thunk_runtime=true") == (
        f"--xla_cpu_use_thunk_runtime=true {FLAG}=individual_dot,reduce")


def test_the_users_value_wins_and_the_switch_turns_defaults_off(monkeypatch):
    assert _configured(monkeypatch, f"{FLAG}=") == f"{FLAG}="
    assert _configured(monkeypatch, switch="off") is None
    assert _configured(monkeypatch, "--xla_cpu_use_thunk_runtime=true", switch="0") == (
        "--xla_cpu_use_thunk_runtime=true")


def test_nothing_is_set_on_a_jaxlib_it_was_not_measured_on(monkeypatch):
    assert _configured(monkeypatch, release=(0, 4)) is None
    assert _configured(monkeypatch, release=None) is None


def test_a_fresh_process_runs_with_the_default(default_process):
    assert default_process["value"] == "3.0"
    assert (FLAG in default_process["XLA_FLAGS"]) == (process_setup._jaxlib_release() in process_setup._MEASURED_JAXLIB)


# --- glibc malloc options -----------------------------------------------------------------------

# Prints how many bytes of a fresh 96 MiB malloc block glibc serves by mmap (mallinfo2's hblkhd).
PROBE = """
import ctypes, sporax
from sporax.core import process_setup
class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = process_setup.glibc()
libc.mallinfo2.restype = Info
libc.malloc.restype = ctypes.c_void_p
before = libc.mallinfo2().hblkhd
block = libc.malloc(96 * 2**20)
print(libc.mallinfo2().hblkhd - before)
libc.free(ctypes.c_void_p(block))
"""


def _mapped_bytes(probe=PROBE, **variables):
    env = {name: value for name, value in os.environ.items()
           if name not in ("SPORAX_HOST_MALLOC", "GLIBC_TUNABLES", "LD_PRELOAD") and not name.startswith("MALLOC_")}
    env.update(variables)
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return int(out.stdout.split()[-1])


# What a default import leaves in a fresh process: PROBE's mapped bytes, the objects frozen out of the garbage
# collector, the compilation cache's folder and threshold, a first computation and XLA_FLAGS. Several tests read
# it; one process serves them (each fresh process imports sporax anew: 2-3 CPU s).
_DEFAULT_PROBE = (PROBE if not _NO_MALLINFO else "import sporax\nprint(None)\n") + """
import gc, os
import jax, jax.numpy as jnp
from sporax.core import process_setup
print("frozen", gc.get_freeze_count())
print("cache_folder", process_setup.compile_cache_folder())
print("threshold", jax.config.jax_persistent_cache_min_compile_time_secs)
print("value", float(jnp.ones(3).sum()))
print("XLA_FLAGS", os.environ.get("XLA_FLAGS", ""))
print("x64", jax.config.jax_enable_x64)
import warnings
print("donation_filter", any(action == "ignore" and message is not None
                             and message.match("Some donated buffers were not usable")
                             for action, message, *_ in warnings.filters))
"""
# the settings' opt-outs and the user's own values, none of which a default process has
_NOT_DEFAULT = ("XLA_FLAGS", "SPORAX_XLA_CPU_FLAGS", "SPORAX_HOST_MALLOC", "GLIBC_TUNABLES", "LD_PRELOAD",
                "SPORAX_GC_FREEZE", "SPORAX_COMPILATION_CACHE_DIR", "JAX_COMPILATION_CACHE_DIR",
                "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS")


@pytest.fixture(scope="module")
def default_process(tmp_path_factory):
    """``{name: printed value}`` of _DEFAULT_PROBE run in a fresh process with a default environment, its
    XDG_CACHE_HOME an empty folder (``default_process["xdg"]``)."""
    xdg = str(tmp_path_factory.mktemp("xdg"))
    env = {name: value for name, value in os.environ.items()
           if name not in _NOT_DEFAULT and not name.startswith("MALLOC_")}
    env.update(XDG_CACHE_HOME=xdg, PYTHONPATH=os.path.abspath(_SRC))
    out = subprocess.run([sys.executable, "-c", _DEFAULT_PROBE], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    mapped, *lines = out.stdout.splitlines()
    return {"mapped": mapped, **dict(line.partition(" ")[::2] for line in lines), "xdg": xdg}


@_GLIBC_ONLY
def test_a_large_block_is_served_from_the_heap_after_import(default_process):
    assert default_process["mapped"] == "0"


# The same from a thread other than the main one (XLA runs programs on its worker threads).
THREAD_PROBE = PROBE.replace("before = ", "import threading\nbefore = ").replace(
    "block = libc.malloc(96 * 2**20)",
    "blocks = []\nworker = threading.Thread(target=lambda: blocks.append(libc.malloc(96 * 2**20)))\n"
    "worker.start(); worker.join(); block = blocks[0]")


@pytest.mark.slow  # two fresh processes
@_GLIBC_ONLY
def test_a_large_block_of_another_thread_is_served_from_the_heap_after_import():
    assert _mapped_bytes(probe=THREAD_PROBE) == 0
    assert _mapped_bytes(probe=THREAD_PROBE, SPORAX_HOST_MALLOC="off") >= 96 * 2**20


@pytest.mark.slow  # two fresh processes
@_GLIBC_ONLY
def test_the_switch_and_the_users_own_tuning_leave_glibc_as_it_is():
    assert _mapped_bytes(SPORAX_HOST_MALLOC="off") >= 96 * 2**20
    assert _mapped_bytes(GLIBC_TUNABLES="glibc.malloc.check=0") >= 96 * 2**20


@_GLIBC_ONLY
def test_configure_reports_whether_it_set_the_options(monkeypatch):
    monkeypatch.setenv("SPORAX_HOST_MALLOC", "off")
    assert process_setup.configure_malloc() is False
    monkeypatch.delenv("SPORAX_HOST_MALLOC")
    monkeypatch.setenv("MALLOC_ARENA_MAX", "2")
    assert process_setup.configure_malloc() is False


# --- the persistent compilation cache -----------------------------------------------------------

# One GRAPH-mode LeNet5 train step: prints the two losses and whether the step compiled.
_SCRIPT = textwrap.dedent("""
    import numpy as np
    from jax import monitoring
    import sporax as ms
    from sporax import nn
    from sporax.core import process_setup
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
    print(",".join(map(repr, losses)), process_setup.compile_cache_folder(), "/jax/compilation_cache/cache_hits" in events)
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


# One fresh process with two opt-outs, each read by its own test: the compilation cache's and the GC freeze's.
_SWITCHED_OFF = ("import gc; from sporax.core import process_setup; import sporax; "
                 "print(process_setup.compile_cache_folder(), gc.get_freeze_count())")


@pytest.fixture(scope="module")
def switched_off_process():
    """``[cache folder, frozen objects]`` printed by a fresh process with SPORAX_COMPILATION_CACHE_DIR and
    SPORAX_GC_FREEZE off."""
    return _run(_SWITCHED_OFF, SPORAX_COMPILATION_CACHE_DIR="off", SPORAX_GC_FREEZE="off")


def test_default_folder_follows_xdg_cache_home_and_can_be_switched_off(default_process, switched_off_process):
    assert default_process["cache_folder"] == os.path.join(default_process["xdg"], "sporax", "jax-cache")
    assert switched_off_process[0] == "None"


def test_set_context_moves_and_switches_off_the_cache(tmp_path):
    before = (jax.config.jax_compilation_cache_dir, jax.config.jax_enable_compilation_cache)
    try:
        ms.set_context(compile_cache_path=str(tmp_path))
        assert process_setup.compile_cache_folder() == str(tmp_path)
        ms.set_context(enable_compile_cache=False)
        assert process_setup.compile_cache_folder() is None
        assert ms.get_context("enable_compile_cache") is False
        with pytest.raises(TypeError, match="enable_compile_cache"):
            ms.set_context(enable_compile_cache="yes")
    finally:
        ms.set_context(enable_compile_cache=True, compile_cache_path="")
        process_setup.use_compile_cache(before[0] if before[1] else None)


_THRESHOLD = "import jax, sporax; print(jax.config.jax_persistent_cache_min_compile_time_secs)"


def test_small_train_steps_are_cached_unless_the_user_chose_a_threshold(tmp_path, default_process):
    # JAX's 1 s threshold would leave a LeNet5 step that compiles in 0.8 s out of the cache.
    folder = str(tmp_path / "cache")
    assert default_process["threshold"] == str(process_setup.MIN_COMPILE_SECONDS)
    chosen = _run(_THRESHOLD, SPORAX_COMPILATION_CACHE_DIR=folder, JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="2")
    assert chosen == ["2.0"]


# --- applied once; the settings made on request -------------------------------------------------

def test_import_made_the_settings_and_a_second_apply_changes_nothing(monkeypatch, default_process):
    # pytest resets warning filters around each test: look at a fresh process.
    assert (default_process["x64"], default_process["donation_filter"]) == ("True", "True")
    monkeypatch.delenv("XLA_FLAGS", raising=False)
    process_setup.apply()  # already applied on import
    assert "XLA_FLAGS" not in os.environ


def test_add_xla_flag_keeps_the_users_value(monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", "--xla_gpu_deterministic_ops=false")
    process_setup.add_xla_flag("--xla_gpu_deterministic_ops=true")
    assert os.environ["XLA_FLAGS"] == "--xla_gpu_deterministic_ops=false"
    process_setup.add_xla_flag("--xla_dump_to=/tmp/x")
    assert os.environ["XLA_FLAGS"] == "--xla_gpu_deterministic_ops=false --xla_dump_to=/tmp/x"


def test_openmp_and_memory_variables_never_override_the_users(monkeypatch):
    monkeypatch.setenv("OMP_WAIT_POLICY", "passive")
    monkeypatch.delenv("GOMP_SPINCOUNT", raising=False)
    process_setup.set_openmp_defaults()
    assert os.environ["OMP_WAIT_POLICY"] == "passive"
    assert os.environ["GOMP_SPINCOUNT"] == process_setup.OPENMP_SETTINGS["GOMP_SPINCOUNT"]
    monkeypatch.setenv("XLA_PYTHON_CLIENT_MEM_FRACTION", "0.5")
    monkeypatch.delenv("XLA_PYTHON_CLIENT_PREALLOCATE", raising=False)
    process_setup.set_environment_defaults({"XLA_PYTHON_CLIENT_MEM_FRACTION": "0.9",
                                            "XLA_PYTHON_CLIENT_PREALLOCATE": "false"})
    assert os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] == "0.5"
    assert os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] == "false"


def test_recursion_limit_is_raised_never_lowered():
    before = sys.getrecursionlimit()
    try:
        process_setup.raise_recursion_limit(before - 10)
        assert sys.getrecursionlimit() == before
        process_setup.raise_recursion_limit(before + 10)
        assert sys.getrecursionlimit() == before + 10
    finally:
        sys.setrecursionlimit(before)


# Process-wide edits outside process_setup: the CLI and the launcher set up the processes they run
# (the script's __main__, a worker's environment), which is their purpose, not a side effect of import.
_EDIT = re.compile(r"os\.environ\[[^]]+\]\s*=(?!=)|environ\.(setdefault|update|pop)\(|del os\.environ|putenv\(|"
                   r"jax\.config\.update\(|\.mallopt\(|warnings\.filterwarnings\(|sys\.setrecursionlimit\(|gc\.freeze\(")
_RUNNERS = {"cli.py", os.path.join("parallel", "launch.py"), os.path.join("core", "process_setup.py")}


def test_no_other_module_edits_the_process():
    package = os.path.join(_SRC, "sporax")
    found = []
    for folder, _, files in os.walk(package):
        for name in files:
            path = os.path.join(folder, name)
            if not name.endswith(".py") or os.path.relpath(path, package) in _RUNNERS:
                continue
            with open(path, encoding="utf-8") as file:
                found += [f"{os.path.relpath(path, package)}:{number}: {line.strip()}"
                          for number, line in enumerate(file, 1) if _EDIT.search(line.split("#")[0])]
    assert found == []


# --- import-time objects frozen out of the garbage collector's passes ------------------------------

def test_import_freezes_its_objects_unless_switched_off(default_process, switched_off_process):
    # sporax, JAX and NumPy leave well over 50,000 objects alive after import; none frozen when off.
    assert int(default_process["frozen"]) > 50_000
    assert int(switched_off_process[1]) == 0


# --- NaN kept through exp on XLA:CPU ------------------------------------------------------------


def test_exp_of_a_nan_known_when_compiling_is_nan_as_in_mindspore():
    # mindflow's float16 attention masks its scores with ``zeros_like(scores) * Tensor(-1e10, fp16)``: 0 * -inf is
    # a NaN constant. MindSpore 2.10 GRAPH gives NaN everywhere (recorded); XLA:CPU's exp gave finite garbage
    # (softmax [0.522, -0.0, 0.478]) unless sporax guards it.
    from sporax import Tensor, nn, ops

    class Masked(nn.Cell):
        def construct(self, s):
            s = (s + ops.zeros_like(s) * Tensor(-1e10, ms.float16)).astype(ms.float32)
            return ops.softmax(s, -1), ops.exp(s), ops.cosh(s), ops.sinh(s), ops.exp2(s), nn.Softmax()(s)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        results = Masked()(Tensor(np.array([[1, 2, 3]], np.float16)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for result in results:
        assert result.dtype == ms.float32 and np.isnan(result.asnumpy()).all()
    # numbers, infinities and gradients as before (exp(x) >= x, so the guard's max is exp itself)
    x = jnp.array([-jnp.inf, -80.0, -1.5, 0.0, 1.5, 88.0, jnp.inf], jnp.float32)
    for fn in (jnp.exp, jnp.exp2, jnp.cosh, jnp.sinh):
        np.testing.assert_allclose(jax.jit(fn)(x), np.asarray(fn(x.astype(jnp.float64)), np.float32), rtol=1e-5)
    np.testing.assert_allclose(jax.jit(jax.grad(lambda v: jnp.exp(v).sum()))(x[1:-1]), np.exp(x[1:-1]), rtol=1e-6)
