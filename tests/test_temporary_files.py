"""A save killed mid-write leaves a temporary file; the next save or load of that name removes it,
and never the temporary file of a writer that is still alive."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from sporax import temporary_files
from sporax.io import load_checkpoint, save_checkpoint
from sporax.mindrecord import FileReader, FileWriter

# Saves ~64 MB over and over; the parent kills it while a temporary file exists.
SAVER = textwrap.dedent("""
    import sys
    import numpy as np
    from sporax.io.checkpoint import save_checkpoint
    path, fmt = sys.argv[1], sys.argv[2]
    weights = np.ones((4096, 4096), np.float32)
    print("ready", flush=True)
    while True:
        save_checkpoint({"w": weights}, path, format=fmt)
""")

# Holds a locked temporary file of ``path`` open, as a writer mid-save does, until killed. The module is
# standard library only: loaded from its file, without importing sporax (2-3 CPU s a process).
LIVE_WRITER = textwrap.dedent("""
    import importlib.util, sys, time
    spec = importlib.util.spec_from_file_location("temporary_files", sys.argv[2])
    temporary_files = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(temporary_files)
    handle, temporary = temporary_files.create(sys.argv[1])
    handle.write(b"partial")
    handle.flush()
    print(temporary, flush=True)
    time.sleep(600)
""")


def _live_writer(path):
    return subprocess.Popen([sys.executable, "-c", LIVE_WRITER, path, temporary_files.__file__],
                            stdout=subprocess.PIPE, text=True)


def _temporaries(folder):
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def _kill_mid_save(path, fmt, folder):
    """Kill a saver of ``path`` at a moment its temporary file exists; return the leftovers."""
    process = subprocess.Popen([sys.executable, "-c", SAVER, path, fmt], stdout=subprocess.PIPE,
                               text=True, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    try:
        assert process.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 60
        while not _temporaries(folder):
            assert time.monotonic() < deadline, "the saver never wrote a temporary file"
            time.sleep(0.002)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    return _temporaries(folder)


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_next_save_removes_what_a_killed_save_left(tmp_path, fmt):
    path = str(tmp_path / f"net.{fmt}")
    leftovers = _kill_mid_save(path, fmt, tmp_path)
    assert leftovers and all(name.startswith(f".net.{fmt}.sporax-") for name in leftovers)
    save_checkpoint({"w": np.arange(3, dtype=np.float32)}, path, format=fmt)
    assert _temporaries(tmp_path) == []
    np.testing.assert_array_equal(load_checkpoint(path, format=fmt)["w"].asnumpy(), [0, 1, 2])


def test_load_removes_what_a_killed_save_left(tmp_path):
    path = str(tmp_path / "net.ckpt")
    save_checkpoint({"w": np.zeros(2, np.float32)}, path)
    assert _kill_mid_save(path, "ckpt", tmp_path)
    load_checkpoint(path)  # the old (or the newest complete) checkpoint, and no leftover
    assert _temporaries(tmp_path) == []


def test_a_live_writers_temporary_file_is_kept(tmp_path):
    path = str(tmp_path / "net.ckpt")
    writer = _live_writer(path)
    try:
        live = writer.stdout.readline().strip()
        assert os.path.exists(live)
        save_checkpoint({"w": np.zeros(2, np.float32)}, path)
        load_checkpoint(path)
        assert temporary_files.remove_stale(path) == []
        assert os.path.exists(live), "a live writer's temporary file was removed"
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    # once its writer is dead the file is stale and goes with the next load
    load_checkpoint(path)
    assert not os.path.exists(live)


def test_other_names_are_left_alone(tmp_path):
    path = str(tmp_path / "a.ckpt")
    assert _kill_mid_save(path, "ckpt", tmp_path)
    save_checkpoint({"w": np.zeros(2, np.float32)}, str(tmp_path / "b.ckpt"))
    assert _temporaries(tmp_path), "a save of b.ckpt removed a.ckpt's leftovers"
    save_checkpoint({"w": np.zeros(2, np.float32)}, path)
    assert _temporaries(tmp_path) == []


def _mindrecord(path, value):
    writer = FileWriter(path, overwrite=True)
    writer.add_schema({"x": {"type": "int32"}}, "s")
    writer.write_raw_data([{"x": value}])
    writer.commit()


def test_mindrecord_writer_and_reader_remove_stale_shards(tmp_path):
    path = str(tmp_path / "data.mindrecord")
    # a killed MindRecord writer leaves the same kind of locked-then-abandoned file
    writer = _live_writer(path)
    stale = writer.stdout.readline().strip()
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    _mindrecord(path, 7)
    assert not os.path.exists(stale)
    writer = _live_writer(path)
    stale = writer.stdout.readline().strip()
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    reader = FileReader(path)
    assert [row["x"] for row in reader.get_next()] == [7]
    reader.close()
    assert not os.path.exists(stale)
