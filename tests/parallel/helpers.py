"""Helpers of the multi-process tests."""
import json
import os
import socket
import subprocess
import sys


def free_port():
    """A TCP port nobody listens on now (for a launched job's coordination service)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_launched_job(tmp_path, job, size=2, timeout=240):
    """Run ``job`` (a script path) under ``sporax launch`` with ``size`` processes; returns each rank's
    ``result_<rank>.json`` (the job writes them into the folder given as its argument)."""
    src = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "src"))
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "sporax", "launch", f"--worker_num={size}", f"--local_worker_num={size}",
               f"--master_port={free_port()}", f"--log_dir={tmp_path / 'logs'}", job, str(tmp_path)]
    process = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout)
    logs = "".join((tmp_path / "logs" / f"worker_{rank}.log").read_text() for rank in range(size)
                   if (tmp_path / "logs" / f"worker_{rank}.log").exists())
    assert process.returncode == 0, process.stdout + process.stderr + logs
    return [json.loads((tmp_path / f"result_{rank}.json").read_text()) for rank in range(size)]
