"""Run a model-zoo script unchanged under ``sporax run`` (from ../shared/external/zoo) and read its output."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ZOO = os.path.join(os.path.dirname(ROOT), "shared", "external", "zoo", "official")
SRC = os.path.join(ROOT, "src")


def model_dir(*parts):
    """The model's folder in the shared zoo; skips the test when the zoo is not beside the clone."""
    path = os.path.join(ZOO, *parts)
    if not os.path.isdir(path):
        pytest.skip(f"the model zoo is not available at {path} (it lives in ../shared/external/zoo)")
    return path


def run_script(script, args, cwd, timeout=900, env=None):
    """``python -m sporax run script args`` in ``cwd``; returns stdout+stderr, failing with its tail on error."""
    environment = dict(os.environ, PYTHONPATH=SRC)
    environment.update(env or {})
    result = subprocess.run([sys.executable, "-m", "sporax", "run", script, *args], cwd=cwd, env=environment,
                            capture_output=True, text=True, timeout=timeout)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{script} failed (exit {result.returncode}):\n{output[-6000:]}"
    return output


def numbers_after(pattern, text):
    """Every float that follows ``pattern`` (a regular expression) in ``text``."""
    return [float(value) for value in re.findall(pattern + r"\s*\[?(-?[0-9.]+(?:e-?\d+)?)", text)]
