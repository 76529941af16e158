"""mstx markers land in the JAX trace; DynamicProfilerMonitor traces the steps its JSON file names."""
import glob
import gzip
import json
import os

import sporax as ms
from sporax.profiler import DynamicProfilerMonitor, mstx


def _trace_events(directory):
    (path,) = glob.glob(os.path.join(directory, "**", "perfetto_trace.json.gz"), recursive=True)
    with gzip.open(path) as handle:
        data = json.load(handle)
    return data["traceEvents"] if isinstance(data, dict) else data


def test_mstx_mark_and_range_in_trace(tmp_path):
    profiler = ms.Profiler(output_path=str(tmp_path))
    mstx.mark("mstx_instant")
    range_id = mstx.range_start("mstx_span", domain="train")
    _ = (ms.ops.ones((4,)) * 2).asnumpy()
    mstx.range_end(range_id)
    profiler.stop()
    events = {event["name"]: event for event in _trace_events(str(tmp_path)) if event.get("name", "").startswith("mstx_")}
    assert set(events) == {"mstx_instant", "mstx_span"}
    assert events["mstx_span"]["args"]["domain"] == "train" and events["mstx_span"]["dur"] > 0
    assert range_id >= 1 and mstx.range_end(12345) is None  # an unknown id is ignored


def test_dynamic_monitor_traces_configured_steps(tmp_path):
    monitor = DynamicProfilerMonitor(cfg_path=str(tmp_path / "cfg"), output_path=str(tmp_path / "out"),
                                     poll_interval=1)
    config_file = tmp_path / "cfg" / "profiler_config.json"
    config = json.loads(config_file.read_text())
    assert config["start_step"] == -1 and config["stop_step"] == -1
    config.update(start_step=2, stop_step=3)
    config_file.write_text(json.dumps(config))
    os.utime(config_file, (1, 1))  # a changed modification time, whatever the clock's resolution
    traced = []
    for step in range(1, 6):
        monitor._last_poll = 0.0  # poll at every step (the interval is wall-clock time)
        monitor.step()
        traced.append(monitor._profiler is not None)
        _ = (ms.ops.ones((2,)) + step).asnumpy()
    assert traced == [False, True, True, False, False]
    run_dir = tmp_path / "out" / "rank0_start2_stop3"
    assert glob.glob(str(run_dir / "**" / "*.xplane.pb"), recursive=True)
