"""The ``sporax`` command: ``sporax run`` behaves as ``python SCRIPT``; ``sporax info``."""
import os
import subprocess
import sys
import textwrap

import pytest

from sporax.cli import build_parser, main
from sporax.compat import is_installed, uninstall

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")

PROBE = textwrap.dedent("""\
    import sys, os
    import mindspore as ms
    print("argv", sys.argv)
    print("name", __name__)
    print("file", __file__)
    print("path0", sys.path[0])
    print("tensor", ms.Tensor is __import__("sporax").Tensor)
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "exit":
        sys.exit(int(sys.argv[2]))
    if mode == "raise":
        def inner():
            raise ValueError("raised by the script")
        inner()
    if mode == "message":
        sys.exit("a message to stderr")
    """)


def sporax(*args, cwd=None):
    """Run ``python -m sporax ARGS`` in a subprocess (as the installed `sporax` command does)."""
    return subprocess.run([sys.executable, "-m", "sporax", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


@pytest.fixture
def probe(tmp_path):
    directory = tmp_path / "scripts"
    directory.mkdir()
    script = directory / "probe.py"
    script.write_text(PROBE)
    return script


def lines_of(result):
    return dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)


def test_run_passes_argv_name_file_and_path(probe, tmp_path):
    # A relative script path, and arguments that look like options (`--`, `-h`) go to the script.
    result = sporax("run", "scripts/probe.py", "--", "-h", "--lr=0.1", "x", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    seen = lines_of(result)
    assert seen["argv"] == repr(["scripts/probe.py", "--", "-h", "--lr=0.1", "x"])
    assert seen["name"] == "__main__"
    assert seen["file"] == str(probe)
    assert seen["path0"] == str(probe.parent)
    assert seen["tensor"] == "True"


@pytest.fixture
def in_process(monkeypatch):
    """Run `sporax.cli.main` in this process, restoring what `sporax run` changes."""
    saved = sys.argv[:], sys.path[:], sys.modules["__main__"], is_installed()
    monkeypatch.delenv("SPORAX_RUN_SCRIPT", raising=False)  # restored afterwards
    yield main
    sys.argv[:], sys.path[:] = saved[0], saved[1]
    sys.modules["__main__"] = saved[2]
    if not saved[3]:
        uninstall()


@pytest.mark.parametrize("code", [0, 3])
def test_run_honours_sys_exit_codes(in_process, tmp_path, code):
    script = tmp_path / "exits.py"
    script.write_text(f"import sys\nsys.exit({code})\n")
    with pytest.raises(SystemExit) as raised:
        in_process(["run", str(script)])
    assert raised.value.code == code


def test_run_returns_0_when_the_script_ends(in_process, tmp_path, capsys):
    script = tmp_path / "ends.py"
    script.write_text("import mindspore\nprint(__name__, mindspore.float32)\n")
    assert in_process(["run", str(script)]) == 0
    assert capsys.readouterr().out == "__main__ Float32\n"


def test_run_lets_sys_exit_with_a_message_through(in_process, probe):
    # The interpreter then prints the message and exits with status 1, as for `python SCRIPT`.
    with pytest.raises(SystemExit) as raised:
        in_process(["run", str(probe), "message"])
    assert raised.value.code == "a message to stderr"


def test_run_exception_prints_the_scripts_traceback_and_exits_1(probe):
    result = sporax("run", str(probe), "raise")
    assert result.returncode == 1
    stderr = result.stderr
    assert stderr.startswith("Traceback (most recent call last):\n")
    assert f'File "{probe}", line' in stderr and "in inner" in stderr
    assert stderr.rstrip().endswith("ValueError: raised by the script")
    # As `python SCRIPT` shows it: no frames of sporax's runner.
    assert "cli.py" not in stderr and "runpy" not in stderr


def test_run_syntax_error_is_shown_as_python_shows_it(in_process, tmp_path, capsys):
    script = tmp_path / "broken.py"
    script.write_text("x = (\n")
    assert in_process(["run", str(script)]) == 1
    stderr = capsys.readouterr().err
    assert "Traceback" not in stderr
    assert "SyntaxError" in stderr and str(script) in stderr


def test_run_missing_script(in_process, tmp_path, capsys):
    assert in_process(["run", str(tmp_path / "nope.py")]) == 2
    stderr = capsys.readouterr().err
    assert "can't open file" in stderr and "nope.py" in stderr


def test_python_m_sporax_info_prints_versions_and_devices():
    result = sporax("info")
    assert result.returncode == 0, result.stderr
    for label in ("sporax:", "jax:", "jaxlib:", "numpy:", "backend:", "devices:"):
        assert label in result.stdout


def test_parser_lists_the_subcommands():
    help_text = build_parser().format_help()
    assert "run" in help_text and "info" in help_text and "demo" in help_text


def test_no_subcommand_prints_help_and_fails(capsys):
    assert main([]) == 2
    assert "usage: sporax" in capsys.readouterr().out


def test_example_script_trains(tmp_path):
    # The README points at this script for trying `sporax run`; two epochs must already learn.
    result = sporax("run", os.path.join(EXAMPLES, "train_mlp.py"), "--epochs", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    epochs = [line.split() for line in result.stdout.splitlines() if line.startswith("epoch")]
    assert len(epochs) == 2
    first_loss, last_loss = float(epochs[0][3]), float(epochs[-1][3])
    assert last_loss < first_loss
    assert float(epochs[-1][6]) > 0.8


SPAWNS = textwrap.dedent("""\
    import multiprocessing
    import mindspore as ms

    class Box:
        def __init__(self, value):
            self.value = value

    def work(box):
        return box.value * 2, str(ms.float32)

    if __name__ == "__main__":
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            print(pool.apply(work, (Box(21),)))
    """)


def run_text(tmp_path, source):
    """What ``sporax run`` prints for a script holding ``source`` (which must succeed)."""
    script = tmp_path / "script.py"
    script.write_text(source)
    result = sporax("run", str(script), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_run_script_can_spawn_processes(tmp_path):
    # A spawned child re-imports the script (which imports mindspore) before it unpickles the
    # work: sporax run makes the child install the aliases first.
    assert run_text(tmp_path, SPAWNS) == "(42, 'Float32')\n"


NUMPY_SCALARS = textwrap.dedent("""\
    import numpy as np
    from mindspore.dataset import transforms
    import mindspore.dataset as ds
    print({"accuracy": np.float64(0.375), "n": np.int64(3)}, [np.float32(0.5)], np.array([0.5, 1.0]))
    print(transforms.vision.ToTensor is ds.vision.ToTensor, transforms.vision.ToTensor.__name__)
    """)


def test_run_prints_numpy_scalars_as_under_mindspores_numpy(tmp_path):
    # MindSpore 2.10 runs on NumPy 1.x: its Model.fit prints "metrics: {'accuracy': 0.375}", where
    # NumPy 2 writes np.float64(0.375). Its transforms package also holds the vision module.
    assert run_text(tmp_path, NUMPY_SCALARS) == "{'accuracy': 0.375, 'n': 3} [0.5] [0.5 1. ]\nTrue ToTensor\n"
