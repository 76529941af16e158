"""mindspore.log: MindSpore's line format, GLOG_v levels, file logging; checked in fresh processes."""
import os
import re
import subprocess
import sys

import pytest

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
# [WARNING] ME(123:456,MainProcess):2026-11-24-21:00:48.925.000 [/path/script.py:3] message
LINE = re.compile(r"^\[(DEBUG|INFO|WARNING|ERROR|CRITICAL)\] ME\(\d+:\d+,MainProcess\):"
                  r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} \[(.+):(\d+)\] (.*)$")

SCRIPT = """
import sporax.compat; sporax.compat.install()
from mindspore import log as logger
import mindspore
logger.debug("d %d", 0)
logger.info("i %d", 1)
logger.warning("w %d", 2)
logger.error("e %d", 3)
logger.critical("c %d", 4)
print("LEVEL", logger.get_level(), mindspore.log.get_log_config())
"""
# The other configurations load sporax/log.py (standard library only) from its file, without importing sporax
# (2-3 CPU s a process); the default one above checks it as ``mindspore.log``.
ALONE = SCRIPT.replace("""import sporax.compat; sporax.compat.install()
from mindspore import log as logger
import mindspore
""", f"""import importlib.util
spec = importlib.util.spec_from_file_location("log", {os.path.join(SRC, "sporax", "log.py")!r})
logger = importlib.util.module_from_spec(spec)
spec.loader.exec_module(logger)
""").replace("mindspore.log.get_log_config()", "logger.get_log_config()")


def _run(tmp_path, code=ALONE, **env):
    script = tmp_path / "uses_log.py"
    script.write_text(code)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("GLOG_")}
    environment.update(env, PYTHONPATH=SRC)
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=environment,
                          timeout=120)


def _messages(stderr):
    return [LINE.match(line) for line in stderr.splitlines() if LINE.match(line)]


def test_default_level_is_warning_with_mindspore_format(tmp_path):
    result = _run(tmp_path, SCRIPT)
    matches = _messages(result.stderr)
    assert [m.group(4) for m in matches] == ["w 2", "e 3", "c 4"]
    assert all(m.group(2).endswith("uses_log.py") for m in matches)
    assert [int(m.group(3)) for m in matches] == [7, 8, 9]
    assert "LEVEL 2 {'GLOG_v': '2', 'GLOG_logtostderr': '1'}" in result.stdout


@pytest.mark.parametrize("level, shown", [("0", ["d 0", "i 1", "w 2", "e 3", "c 4"]), ("3", ["e 3", "c 4"])])
def test_glog_v_selects_the_level(tmp_path, level, shown):
    result = _run(tmp_path, GLOG_v=level)
    assert [m.group(4) for m in _messages(result.stderr)] == shown
    assert f"LEVEL {level}" in result.stdout


def test_bad_level_is_a_clear_error(tmp_path):
    result = _run(tmp_path, GLOG_v="7")
    assert result.returncode != 0 and "GLOG_v" in result.stderr and "ValueError" in result.stderr


def test_file_logging_under_log_dir(tmp_path):
    result = _run(tmp_path, GLOG_v="1", GLOG_logtostderr="0", GLOG_log_dir=str(tmp_path / "logs"), RANK_ID="2")
    assert [m.group(4) for m in _messages(result.stderr)] == ["w 2", "e 3", "c 4"]  # stderrthreshold 2
    files = list((tmp_path / "logs" / "rank_2" / "logs").glob("mindspore.log.*"))
    assert len(files) == 1
    assert [m.group(4) for m in _messages(files[0].read_text())] == ["i 1", "w 2", "e 3", "c 4"]
    assert "'GLOG_stderrthreshold': '2'" in result.stdout and "rank_2" in result.stdout


def test_file_logging_needs_a_directory(tmp_path):
    result = _run(tmp_path, GLOG_logtostderr="0")
    assert result.returncode != 0 and "GLOG_log_dir must be set" in result.stderr
