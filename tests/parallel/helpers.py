"""Helpers of the multi-process tests."""
import json
import os
import socket
import subprocess
import sys

SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "src"))
JOBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jobs")


def free_port():
    """A TCP port nobody listens on now (for a launched job's coordination service)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_job(job, tmp_path, size=2, timeout=240):
    """Run ``tests/parallel/jobs/<job>`` (or the script at the path ``job``) on ``size`` processes (``sporax launch``), with ``tmp_path`` as its
    output folder; every rank's ``result_<rank>.json``, in rank order. A failed job fails the test with its
    output and the workers' logs."""
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "sporax", "launch", f"--worker_num={size}", f"--local_worker_num={size}",
               f"--master_port={free_port()}", f"--log_dir={tmp_path / 'logs'}", os.path.join(JOBS, job),
               str(tmp_path)]
    process = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout)
    logs = "".join((tmp_path / "logs" / f"worker_{rank}.log").read_text() for rank in range(size)
                   if (tmp_path / "logs" / f"worker_{rank}.log").exists())
    assert process.returncode == 0, process.stdout + process.stderr + logs
    return [json.loads((tmp_path / f"result_{rank}.json").read_text()) for rank in range(size)]
