"""Profiler: a 20-step LeNet run writes a trace TensorBoard/Perfetto read and a per-op step table."""
import csv
import glob
import gzip
import json
import os

import numpy as np
import pytest

from sporax import Tensor, nn
from sporax import profiler
from sporax.profiler.schedule import ProfilerAction


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.pool = nn.MaxPool2d(2, 2)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(400, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(self.flatten(x))))))


def _train_step():
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    rng = np.random.default_rng(0)
    x = Tensor(rng.random((16, 1, 32, 32), dtype=np.float32))
    y = Tensor(rng.integers(0, 10, 16).astype(np.int32))
    step(x, y)  # compile outside the profiled span
    return lambda: step(x, y)


def _rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def test_profiler_lenet_20_steps_trace_and_step_table(tmp_path):
    from jax.profiler import ProfileData
    step = _train_step()
    prof = profiler.Profiler(output_path=str(tmp_path))
    for _ in range(20):
        step()
        prof.step()
    summaries = prof.analyse()
    # TensorBoard's profile plugin lists runs as <logdir>/plugins/profile/<run>/<host>.xplane.pb.
    runs = glob.glob(os.path.join(tmp_path, "plugins", "profile", "*"))
    assert len(runs) == 1
    xspace = ProfileData.from_file(glob.glob(os.path.join(runs[0], "*.xplane.pb"))[0])
    hlo_ops = [e for plane in xspace.planes for line in plane.lines for e in line.events
               if "hlo_op" in dict(e.stats)]
    assert len(hlo_ops) >= 20
    with gzip.open(os.path.join(runs[0], "perfetto_trace.json.gz"), "rt") as handle:
        trace = json.load(handle)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    assert any(e.get("name") == "ProfilerStep" for e in events)
    # The step table: 20 recorded steps (+ the one begun by the last step() and closed by stop()).
    folder = os.path.dirname(summaries[0])
    steps = _rows(os.path.join(folder, "step_trace_time.csv"))
    assert [int(r["Step"]) for r in steps][:20] == list(range(20))
    assert all(float(r["Computing(us)"]) > 0 for r in steps[:20])
    types = _rows(os.path.join(folder, "op_statistic.csv"))
    by_type = {r["OP Type"]: r for r in types}
    assert "convolution" in by_type
    assert abs(sum(float(r["Ratio(%)"]) for r in types) - 100) < 0.5
    assert int(by_type["convolution"]["Count"]) % 20 == 0
    totals = sorted((float(r["Total Time(us)"]) for r in types), reverse=True)
    assert [float(r["Total Time(us)"]) for r in types] == totals
    text = open(summaries[0]).read()
    assert "convolution" in text and "Average step time" in text


def test_schedule_actions():
    plan = profiler.schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=1)
    actions = [plan(step) for step in range(11)]
    A = ProfilerAction
    assert actions == [A.NONE, A.NONE, A.WARM_UP, A.RECORD, A.RECORD_AND_SAVE,
                       A.NONE, A.WARM_UP, A.RECORD, A.RECORD_AND_SAVE, A.NONE, A.NONE]
    with pytest.raises(ValueError, match="active"):
        profiler.schedule(wait=1, active=0)


def test_profile_schedule_with_tensorboard_handler(tmp_path):
    step = _train_step()
    handler = profiler.tensorboard_trace_handler(str(tmp_path), worker_name="worker")
    plan = profiler.schedule(wait=1, warmup=1, active=3, repeat=1)
    with profiler.profile(schedule=plan, on_trace_ready=handler) as prof:
        for _ in range(7):
            step()
            prof.step()
    assert len(prof.traces) == 1
    tables = glob.glob(os.path.join(tmp_path, "profiler_output", "worker_*", "step_trace_time.csv"))
    assert len(tables) == 1
    # Only the active steps are reported, not the wait or warm-up ones.
    assert [int(r["Step"]) for r in _rows(tables[0])] == [2, 3, 4]


def test_two_profilers_cannot_trace_at_once(tmp_path):
    first = profiler.Profiler(output_path=str(tmp_path / "a"))
    try:
        with pytest.raises(RuntimeError, match="one trace at a time"):
            profiler.Profiler(output_path=str(tmp_path / "b"))
    finally:
        first.stop()


def test_mindspore_paths_serve_the_profiler():
    import importlib
    from sporax.compat import install
    install()
    assert importlib.import_module("mindspore.profiler").Profiler is profiler.Profiler
    assert importlib.import_module("mindspore.profiler.profiling").Profiler is profiler.Profiler


def test_profiler_without_step_calls_reports_one_span(tmp_path):
    step = _train_step()
    prof = profiler.Profiler(output_path=str(tmp_path))
    for _ in range(3):
        step()
    summary = prof.analyse()[0]
    assert _rows(os.path.join(os.path.dirname(summary), "step_trace_time.csv")) == []
    assert "no step marks" in open(summary).read()
    types = _rows(os.path.join(os.path.dirname(summary), "op_statistic.csv"))
    assert int({r["OP Type"]: r for r in types}["convolution"]["Count"]) % 3 == 0


def test_offline_analyse_of_a_path_without_traces_logs_and_returns_none(tmp_path, monkeypatch):
    # MindSpore 2.10 (Profiler.offline_analyse's docstring, no such directory): logs
    # "Call to offline_analyse failed. Exception: ..." at ERROR and returns None.
    from sporax.profiler import profiler as profiler_module  # noqa: PLC0415 - the module whose log is watched

    errors = []
    monkeypatch.setattr(profiler_module.log, "error", errors.append)
    assert profiler.Profiler.offline_analyse(str(tmp_path / "profiling_path")) is None
    assert len(errors) == 1 and errors[0].startswith("Call to offline_analyse failed.")


def test_a_trace_stopped_in_the_same_second_as_the_last_one_is_found(tmp_path, monkeypatch):
    # JAX names a run directory by the second the trace stops: a second trace of the same second (two short
    # profiled cells of one script) adds its files to the first one's directory, and must still be found.
    import jax  # noqa: PLC0415

    run_dir = tmp_path / "plugins" / "profile" / "2026_12_01_05_00_00"
    written = []

    def stop_trace():
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / f"host{len(written)}.xplane.pb").write_bytes(b"")
        written.append(run_dir)

    monkeypatch.setattr(jax.profiler, "start_trace", lambda *args, **kwargs: None)
    monkeypatch.setattr(jax.profiler, "stop_trace", stop_trace)
    for _ in range(2):
        prof = profiler.Profiler(output_path=str(tmp_path))
        prof.stop()
        assert prof.traces == [str(run_dir)]
