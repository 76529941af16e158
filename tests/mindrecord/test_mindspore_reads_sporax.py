"""MindSpore 2.10 reads what sporax writes: run live where the oracle is installed.

The recorded run is tests/fixtures/mindrecord/ms_reads_sporax.txt; byte-identity with the
files MindSpore writes is tested offline in test_oracle_files.py.
"""
import os
import subprocess
import sys

import pytest

ORACLE = "/tmp/ms/bin/python"
SCRIPT = os.path.join(os.path.dirname(__file__), "..", "fixtures", "mindrecord", "ms_reads_sporax.py")


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(ORACLE), reason="MindSpore 2.10 oracle not installed at /tmp/ms")
def test_mindspore_reads_sporax_files(tmp_path):
    subprocess.run([sys.executable, SCRIPT, "--write", str(tmp_path)], check=True, timeout=300)
    result = subprocess.run([ORACLE, SCRIPT, "--check", str(tmp_path)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ALL OK" in result.stdout
