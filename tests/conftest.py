"""Test-session settings shared by every test folder."""
import atexit
import os
import shutil
import tempfile

# sporax caches compiled programs under ~/.cache by default; the test suite must not write into the user's
# home, so the run gets a cache folder of its own (unless one, or "off", is chosen in the environment), made
# by the process that starts pytest and removed when it exits. The xdist workers and the processes tests
# start inherit the variable, so they share the folder: most of the suite's time is XLA compiling small
# programs, and the same program (an op's kernel for a shape, a network's step) recurs across test files,
# across both workers and in each subprocess of a multi-process test; a hit costs about a quarter of a
# compile (jaxlib 0.10.2). A cache hit is the compiled program itself, as sporax's own default cache gives
# a user's second run. Every program is stored: the test programs compile in well under the 1 s (JAX) or
# 0.25 s (sporax) that a program must take to be kept by default.
if "SPORAX_COMPILATION_CACHE_DIR" not in os.environ:
    _cache_folder = tempfile.mkdtemp(prefix="sporax-test-compile-cache-")
    os.environ["SPORAX_COMPILATION_CACHE_DIR"] = _cache_folder
    atexit.register(shutil.rmtree, _cache_folder, ignore_errors=True)
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")

# With PYTHONDONTWRITEBYTECODE set (as on the CI machine), every process of the run compiles from source each
# module it imports: both xdist workers and each subprocess a test starts compile sporax's ~700 modules again
# (2.7 of the 6.7 CPU s that `import sporax` takes), and pytest rewrites every test module again. The run keeps
# its bytecode in a folder of its own (PYTHONPYCACHEPREFIX), made and removed as the compile cache's is, so
# nothing is written into the source tree, as the variable asks; the workers and subprocesses inherit it.
if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    import sys

    _bytecode_folder = tempfile.mkdtemp(prefix="sporax-test-bytecode-")
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = _bytecode_folder
    sys.dont_write_bytecode, sys.pycache_prefix = False, _bytecode_folder
    atexit.register(shutil.rmtree, _bytecode_folder, ignore_errors=True)


import pytest


@pytest.fixture(autouse=True, scope="module")
def starts_in_pynative_mode():
    """Each test file starts in PyNative mode, as a fresh process does: under xdist a worker runs many files,
    and one that leaves GRAPH_MODE set must not decide the mode of the next (``test_context``'s defaults
    failed so, depending on which files its worker ran before it). No device target is requested either: one
    file's set_context(device_target='CPU') must not turn the next file's data sink off."""
    import sporax
    from sporax.core import context

    sporax.set_context(mode=sporax.PYNATIVE_MODE)
    context._requested["device_target"] = None
    yield


@pytest.fixture(params=["graph", "pynative"])
def each_mode(request):
    """The test runs once in GRAPH_MODE and once in PYNATIVE_MODE; yields ``"graph"`` or ``"pynative"``."""
    import sporax

    previous = sporax.get_context("mode")
    sporax.set_context(mode=sporax.GRAPH_MODE if request.param == "graph" else sporax.PYNATIVE_MODE)
    yield request.param
    sporax.set_context(mode=previous)


# xdist's loadfile hands out whole files, by default the files with the most tests first: the few-test files that
# start processes (a launched job, a 4-device worker, MindSpore's interpreter, `sporax run`) came last, and one
# worker ran such a file alone while the other had nothing left. These start first instead (longest first, CPU
# seconds measured on the 2-core CI machine), then the others by number of tests, as before
# (`--no-loadscope-reorder` in pyproject.toml makes xdist keep this order). A single-process run keeps its order.
COSTLY_FILES = (
    "tests/parallel/test_launch_jobs.py",  # 64
    "tests/parallel/test_optimizer_shard.py",  # 40-50
    "tests/parallel/test_auto_parallel.py",  # 31-43
    "tests/parallel/test_point_to_point.py",  # 21-34
    "tests/io/mindir/test_export.py",  # 26
    "tests/ops/lowering/test_conv_nhwc_cpu_lowering.py",  # 26
    "tests/core/test_process_setup.py",  # 25
    "tests/demo/test_demo.py",  # 24
    "tests/parallel/test_shard_devices.py",  # 18-21
    "tests/test_seeds.py",  # 25
    "tests/ops/lowering/test_conv_onednn_lowering.py",  # 23
    "tests/io/test_atomic_save.py",  # 16
    "tests/ops/test_custom_op_builder.py",  # 13
    "tests/io/mindir/test_load.py",  # 13
    "tests/test_cli.py",  # 12
    "tests/state/test_background_compile.py",  # 11
)


@pytest.hookimpl(trylast=True)  # after `-m 'not slow'` deselected
def pytest_collection_modifyitems(config, items):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    rank = {path: index for index, path in enumerate(COSTLY_FILES)}
    count = {}
    for item in items:
        path = item.nodeid.split("::")[0]
        count[path] = count.get(path, 0) + 1
    # A stable sort by file: each file's tests stay together and in pytest's order.
    items.sort(key=lambda item: (rank.get(item.nodeid.split("::")[0], len(rank)),
                                 -count[item.nodeid.split("::")[0]], item.nodeid.split("::")[0]))
