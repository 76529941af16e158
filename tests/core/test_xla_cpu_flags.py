"""sporax's XLA:CPU defaults: appended to XLA_FLAGS only where the user set nothing, overridable."""
import os
import subprocess
import sys

from sporax.core import xla_cpu_flags

FLAG = "--xla_cpu_experimental_ynn_fusion_type"


def _configured(monkeypatch, flags=None, switch=None, release=(0, 10)):
    for name, value in (("XLA_FLAGS", flags), ("SPORAX_XLA_CPU_FLAGS", switch)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    monkeypatch.setattr(xla_cpu_flags, "_jaxlib_release", lambda: release)
    xla_cpu_flags.configure()
    return os.environ.get("XLA_FLAGS")


def test_default_is_appended_to_the_users_other_flags(monkeypatch):
    assert _configured(monkeypatch) == f"{FLAG}=individual_dot,reduce"
    assert _configured(monkeypatch, "--xla_cpu_use_thunk_runtime=true") == (
        f"--xla_cpu_use_thunk_runtime=true {FLAG}=individual_dot,reduce")


def test_the_users_value_wins_and_the_switch_turns_defaults_off(monkeypatch):
    assert _configured(monkeypatch, f"{FLAG}=") == f"{FLAG}="
    assert _configured(monkeypatch, switch="off") is None
    assert _configured(monkeypatch, "--xla_cpu_use_thunk_runtime=true", switch="0") == (
        "--xla_cpu_use_thunk_runtime=true")


def test_nothing_is_set_on_a_jaxlib_it_was_not_measured_on(monkeypatch):
    assert _configured(monkeypatch, release=(0, 4)) is None
    assert _configured(monkeypatch, release=None) is None


def test_a_fresh_process_runs_with_the_default():
    env = {name: value for name, value in os.environ.items() if name not in ("XLA_FLAGS", "SPORAX_XLA_CPU_FLAGS")}
    code = ("import os, sporax, jax.numpy as jnp; print(float(jnp.ones(3).sum())); "
            "print(os.environ.get('XLA_FLAGS', ''))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    value, flags = out.stdout.splitlines()
    assert value == "3.0"
    assert (FLAG in flags) == (xla_cpu_flags._jaxlib_release() in xla_cpu_flags._MEASURED_JAXLIB)
