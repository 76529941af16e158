"""``EnvProfiler``: profiling switched on by ``MS_PROFILER_OPTIONS``."""
import json
import os

import numpy as np

import sporax as ms
from sporax.profiler import EnvProfiler
from sporax.profiler.environment import _convert
from sporax.profiler.constants import ProfilerActivity, ProfilerLevel


def test_options_convert_to_profile_arguments():
    params = _convert({"activities": ["CPU", "bogus"], "profiler_level": "Level1", "with_stack": True,
                       "schedule": "ignored", "output_path": "./x"})
    assert params == {"activities": [ProfilerActivity.CPU], "profiler_level": ProfilerLevel.Level1,
                      "with_stack": True}


def test_nothing_starts_without_the_variable(monkeypatch):
    monkeypatch.delenv("MS_PROFILER_OPTIONS", raising=False)
    monkeypatch.setattr(EnvProfiler, "profiler", None)
    EnvProfiler.init_profiler()
    assert EnvProfiler.profiler is None
    EnvProfiler().analyse()  # nothing to stop
    monkeypatch.setenv("MS_PROFILER_OPTIONS", "{not json")
    EnvProfiler.init_profiler()
    assert EnvProfiler.profiler is None


def test_start_profiles_until_analyse(monkeypatch, tmp_path):
    monkeypatch.setattr(EnvProfiler, "profiler", None)
    monkeypatch.setenv("MS_PROFILER_OPTIONS", json.dumps({"start": True, "output_path": str(tmp_path),
                                                          "activities": ["CPU"]}))
    EnvProfiler.init_profiler()
    assert EnvProfiler.profiler is not None
    (ms.Tensor(np.ones((4, 4), np.float32)) * 2).asnumpy()
    EnvProfiler().analyse()
    written = [name for _, _, files in os.walk(tmp_path) for name in files]
    assert any(name.endswith((".xplane.pb", ".trace.json.gz", ".json.gz")) for name in written), written
