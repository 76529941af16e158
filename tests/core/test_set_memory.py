"""mindspore.set_memory: MindSpore 2.10's checks (messages recorded from it) and the mapping onto JAX's client
variables; a child process shows the variables reaching a JAX client created after the call."""
import os
import subprocess
import sys

import pytest

import sporax as ms
from sporax.core import context, runtime

VARIABLES = ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_MEM_FRACTION")
SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "src"))


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(runtime, "_memory_settings", {})
    level = context.get_context("memory_optimize_level")
    yield
    context._context["memory_optimize_level"] = level


@pytest.mark.parametrize("arguments, error, message", [
    (dict(init_size=2), TypeError, "The parameter 'init_size' must be <class 'str'>, but got <class 'int'>"),
    (dict(optimize_level=1), TypeError, "The parameter 'optimize_level' must be <class 'str'>"),
    (dict(init_size="2G"), ValueError, r"The '2G' is illegal, it must be match regular'\[1-9\]"),
    (dict(max_size="0GB"), ValueError, "The '0GB' is illegal"),
    (dict(max_size="0.0GB"), ValueError, 'The memory value should not be "0GB".'),
    (dict(huge_page_reserve_size="x"), ValueError, r"The 'x' is illegal, it must be match regular'\[0-9\]"),
    (dict(optimize_level="O2"), ValueError, r"The optimize_level must be one of \['O0', 'O1'\], but got O2."),
])
def test_set_memory_checks_its_arguments_as_mindspore(arguments, error, message):
    with pytest.raises(error, match=message):
        ms.set_memory(**arguments)
    ms.set_memory()  # a failed call configures nothing


def test_set_memory_once_per_process_and_optimize_level_in_the_context():
    ms.set_memory(init_size="0.5GB", max_size="3.5GB", optimize_level="O1")
    assert context.get_context("memory_optimize_level") == 1
    assert context.get_context("max_device_memory") == 1024.0  # MindSpore leaves it too
    with pytest.raises(RuntimeError, match="The 'set_memory' can not be set repeatedly."):
        ms.set_memory()
    with pytest.raises(TypeError, match="init_size"):  # the type check comes first, as MindSpore's decorator
        ms.set_memory(init_size=1)


def test_the_pool_grows_on_demand_and_max_size_becomes_a_fraction_of_the_device():
    assert runtime.memory_environment(8.0, 32 * 2 ** 30) == {"XLA_PYTHON_CLIENT_PREALLOCATE": "false",
                                                             "XLA_CLIENT_MEM_FRACTION": "0.2500"}
    assert runtime.memory_environment(1024.0, 32 * 2 ** 30) == {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    assert runtime.memory_environment(8.0, None) == {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"}  # CPU: no pool
    ms.set_memory(max_size="4GB")
    assert os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] == "false"


def test_a_variable_the_user_set_wins(monkeypatch):
    monkeypatch.setenv("XLA_PYTHON_CLIENT_PREALLOCATE", "true")
    ms.set_memory()
    assert os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] == "true"


def test_a_process_started_after_set_memory_creates_its_client_with_the_settings():
    script = ("import os, sporax as ms, subprocess, sys\n"
              "ms.set_memory(max_size='4GB')\n"
              "child = 'import os; from jaxlib import xla_client; "
              "print(os.environ[\"XLA_PYTHON_CLIENT_PREALLOCATE\"], xla_client.generate_pjrt_gpu_plugin_options()"
              "[\"preallocate\"])'\n"
              "print(subprocess.run([sys.executable, '-c', child], capture_output=True, text=True).stdout)\n")
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert out.stdout.split() == ["false", "False"], out.stderr
