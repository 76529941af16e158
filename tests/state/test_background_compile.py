"""The first steps of a large program run on a quick compile while the full one compiles in the
background (sporax.state.program_cache.QuickStart); the results equal a run that waited."""
import os
import subprocess
import sys
import textwrap
import threading

import jax
import numpy as np
import pytest
from jax import monitoring

import sporax as ms
from sporax import Tensor, nn
from sporax.graph.cell_jit import compiled_cell
from sporax.state import program_cache

STEPS = 5


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell(nn.Conv2d(1, 6, 5, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2),
                                          nn.Conv2d(6, 16, 5, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2))
        self.classifier = nn.SequentialCell(nn.Flatten(), nn.Dense(400, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(),
                                            nn.Dense(84, 10))

    def construct(self, x):
        return self.classifier(self.features(x))


class Block(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(channels, channels, 3), nn.BatchNorm2d(channels)
        self.conv2, self.bn2 = nn.Conv2d(channels, channels, 3), nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x + self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x))))))


class SmallResNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.stem, self.bn = nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8)
        self.blocks = nn.SequentialCell(Block(8), Block(8))
        self.head = nn.SequentialCell(nn.Flatten(), nn.Dense(8 * 32 * 32, 10))

    def construct(self, x):
        return self.head(self.blocks(nn.ReLU()(self.bn(self.stem(x)))))


def train(network_class, steps=STEPS, between_steps=None):
    """Losses and final weights of ``steps`` GRAPH_MODE train steps; ``between_steps(step, train_step)`` runs after each."""
    ms.set_seed(1)
    network = network_class()
    optimizer = nn.Momentum(network.trainable_params(), 0.01, 0.9)
    train_step = nn.TrainOneStepCell(nn.WithLossCell(network, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                            reduction="mean")),
                                     optimizer)
    random = np.random.default_rng(0)
    x = Tensor(random.standard_normal((4, 1, 32, 32)).astype(np.float32))
    y = Tensor(random.integers(0, 10, 4).astype(np.int32))
    losses = []
    for step in range(steps):
        losses.append(train_step(x, y).asnumpy())
        if between_steps is not None:
            between_steps(step, train_step)
    return losses, [parameter.asnumpy() for parameter in network.trainable_params()], train_step


@pytest.fixture
def graph_mode(monkeypatch):
    from sporax.core import process_setup

    # The test run's shared compile cache (tests/conftest.py) may hold these programs from an earlier test, and a
    # program found there takes no quick path: each test here starts cold, as a first run does.
    shared_cache = process_setup.compile_cache_folder()
    process_setup.use_compile_cache(None)
    ms.set_context(mode=ms.GRAPH_MODE)
    # These test programs are small: make them take the quick path as a large one would.
    monkeypatch.setattr(program_cache, "MIN_OPERATIONS", 0)
    monkeypatch.setattr(program_cache, "SHORT_COMPILE_SECONDS", 0.0)
    monkeypatch.setenv("SPORAX_BACKGROUND_COMPILE", "on")
    yield
    program_cache.wait_for_full_compiles()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    process_setup.use_compile_cache(shared_cache)


@pytest.fixture
def held_full_compile(monkeypatch):
    """The background compile starts only when the test sets the returned event."""
    release = threading.Event()
    original = program_cache.QuickStart._compile

    def held(self, lowered):
        release.wait()
        original(self, lowered)

    monkeypatch.setattr(program_cache.QuickStart, "_compile", held)
    return release


def _compile_counter():
    counts = {"compiles": 0}

    def listener(event, duration, **_):
        if event == "/jax/core/compile/backend_compile_duration":
            counts["compiles"] += 1
    monitoring.register_event_duration_secs_listener(listener)
    return counts, listener


def _program(train_step):
    (program,) = compiled_cell(train_step).programs
    return program


@pytest.mark.parametrize("network_class", [LeNet5, SmallResNet])
def test_background_compile_on_and_off_give_bit_equal_losses_and_weights(graph_mode, held_full_compile, monkeypatch,
                                                                          network_class):
    ran_quick = []

    def take_over_after_step_2(step, train_step):
        program = _program(train_step)
        if step == 1:
            ran_quick.append(program._donating.quick_calls)
            held_full_compile.set()
            program_cache.wait_for_full_compiles()

    losses, weights, _ = train(network_class, between_steps=take_over_after_step_2)
    monkeypatch.setenv("SPORAX_BACKGROUND_COMPILE", "off")
    losses_waiting, weights_waiting, train_step = train(network_class)
    assert not isinstance(_program(train_step)._donating, program_cache.QuickStart)
    assert ran_quick == [2]  # steps 1-2 ran the quick program, 3-5 the full one
    for got, expected in zip(losses + weights, losses_waiting + weights_waiting):
        np.testing.assert_array_equal(got, expected)


def test_full_program_takes_over_without_compiling_again(graph_mode, held_full_compile):
    counts, listener = _compile_counter()
    seen = []

    def record(step, train_step):
        program = _program(train_step)
        seen.append((type(program._donating).__name__, counts["compiles"]))
        if step == 1:
            quick_start = program._donating
            held_full_compile.set()
            program_cache.wait_for_full_compiles()
            seen.append(("quick calls", quick_start.quick_calls, counts["compiles"]))

    try:
        train(LeNet5, steps=4, between_steps=record)
    finally:
        monitoring.unregister_event_duration_listener(listener)
    quick_compiled = seen[0][1]
    # The background compile is one more; the takeover and the steps after it compile nothing.
    assert seen == [("QuickStart", quick_compiled), ("QuickStart", quick_compiled),
                    ("quick calls", 2, quick_compiled + 1), ("PjitFunction", quick_compiled + 1),
                    ("PjitFunction", quick_compiled + 1)]
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("sporax full compile")]


def test_failed_background_compile_warns_and_keeps_the_quick_program(graph_mode, monkeypatch):
    def failing(self, lowered):
        self.error = MemoryError("compiler ran out of memory")
        program_cache._full_compiles.remove(threading.current_thread())

    monkeypatch.setattr(program_cache.QuickStart, "_compile", failing)
    with pytest.warns(RuntimeWarning, match="full compile in the background failed.*MemoryError: compiler ran out"):
        losses, weights, train_step = train(LeNet5, steps=3)
    monkeypatch.setenv("SPORAX_BACKGROUND_COMPILE", "off")
    losses_waiting, weights_waiting, _ = train(LeNet5, steps=3)
    for got, expected in zip(losses + weights, losses_waiting + weights_waiting):
        np.testing.assert_array_equal(got, expected)


def test_switch_off_compiles_only_the_full_program(graph_mode, monkeypatch):
    started = []
    monkeypatch.setattr(program_cache, "QuickStart", lambda program, lowered, quick: started.append(program) or program._donating)
    train(LeNet5, steps=1)
    assert len(started) == 1  # on: the train step starts quickly
    monkeypatch.setenv("SPORAX_BACKGROUND_COMPILE", "off")
    train(LeNet5, steps=1)
    assert len(started) == 1


def test_interpreter_exit_waits_for_a_running_background_compile(tmp_path):
    script = textwrap.dedent(f"""
        import sys, threading, time
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        import sporax as ms
        from sporax.state import program_cache
        program_cache.MIN_OPERATIONS, program_cache.SHORT_COMPILE_SECONDS = 0, 0.0
        compile_later = program_cache.QuickStart._compile
        def slow_compile(self, lowered):  # still compiling when the script ends
            time.sleep(1)
            compile_later(self, lowered)
        program_cache.QuickStart._compile = slow_compile
        ms.set_context(mode=ms.GRAPH_MODE)
        from test_background_compile import LeNet5, train
        train(LeNet5, steps=1)
        print("threads", sum(t.name.startswith("sporax full compile") for t in threading.enumerate()), flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "SPORAX_COMPILATION_CACHE_DIR": "off", "SPORAX_BACKGROUND_COMPILE": "on"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Fatal" not in done.stderr and "terminate" not in done.stderr
    assert "threads 1" in done.stdout


def test_background_compile_is_off_unless_asked_for(monkeypatch):
    from sporax.core import process_setup
    monkeypatch.delenv("SPORAX_BACKGROUND_COMPILE", raising=False)
    assert not process_setup.background_compile()
    monkeypatch.setenv("SPORAX_BACKGROUND_COMPILE", "on")
    assert process_setup.background_compile()
    monkeypatch.setenv("SPORAX_BACKGROUND_COMPILE", "off")
    assert not process_setup.background_compile()


def test_persistent_cache_holds_only_the_full_program_and_a_warm_run_skips_the_quick_compile(graph_mode, monkeypatch,
                                                                                               tmp_path):
    from sporax.core import process_setup
    started = []
    original = program_cache.QuickStart

    def recording(program, lowered, quick):
        started.append(program.name)
        return original(program, lowered, quick)

    monkeypatch.setattr(program_cache, "QuickStart", recording)
    minimum = jax.config.jax_persistent_cache_min_compile_time_secs
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    entries = {}
    # One folder for every run: JAX keys an entry on the cache's path too.
    folder = tmp_path / "cache"
    try:
        for label, switch in (("waited", "off"), ("background", "on"), ("warm", "on")):
            if label == "background":
                folder.rename(tmp_path / "waited")
            folder.mkdir(exist_ok=True)
            process_setup.use_compile_cache(str(folder))
            monkeypatch.setenv("SPORAX_BACKGROUND_COMPILE", switch)
            train(LeNet5, steps=2)
            program_cache.wait_for_full_compiles()
            entries[label] = {path.name for path in folder.iterdir() if path.name.startswith("jit_final")}
    finally:
        process_setup.use_compile_cache(None)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", minimum)
    # The full train step is stored under the key of a run that waited; the quick one is not stored.
    assert len(entries["waited"]) == 1
    assert entries["background"] == entries["waited"] == entries["warm"]
    assert len(started) == 1  # the warm run found the full program in the cache
