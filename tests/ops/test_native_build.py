"""native_build.build_library: one build per library name, kept going when its caller is stopped.

A fake "compiler" (a Python script) counts its runs, sleeps, and writes the file named by ``-o``.
"""
import os
import subprocess
import sys
import textwrap
import time

import pytest

from sporax.ops import native_build

FAKE_COMPILER = textwrap.dedent("""
    import sys, time
    with open(sys.argv[1], "a") as runs:
        runs.write("run\\n")
    time.sleep(float(sys.argv[2]))
    if sys.argv[3] == "fail":
        print("error: the fake compiler was told to fail")
        sys.exit(3)
    with open(sys.argv[-1], "w") as out:
        out.write("library")
""")


def _command(tmp_path, seconds, outcome="ok"):
    script = tmp_path / "fake_cxx.py"
    script.write_text(FAKE_COMPILER)
    return [sys.executable, str(script), str(tmp_path / "runs.txt"), str(seconds), outcome]


def test_a_stopped_caller_leaves_the_build_to_finish_and_the_next_caller_reuses_it(tmp_path):
    source = tmp_path / "kernel.cc"
    source.write_text("int f() { return 1; }")
    command = _command(tmp_path, 1.5)
    folder = tmp_path / "kernels"
    # the first caller is killed while it waits (as a test timeout stops it)
    # (the module alone, standard library only: the caller starts fast)
    caller = subprocess.Popen([sys.executable, "-c",
                               "import importlib.util as u; "
                               f"s = u.spec_from_file_location('nb', {native_build.__file__!r}); "
                               "m = u.module_from_spec(s); s.loader.exec_module(m); "
                               f"m.build_library('t', 'k', {command!r}, [{str(source)!r}], {str(folder)!r})"])
    deadline = time.time() + 20
    while not (tmp_path / "runs.txt").exists() and time.time() < deadline:
        time.sleep(0.05)
    caller.kill()
    caller.wait()
    library = native_build.build_library("t", "k", command, [str(source)], str(folder))
    assert open(library).read() == "library"
    assert (tmp_path / "runs.txt").read_text().count("run") == 1  # waited for the first build, did not redo it
    assert native_build.build_library("t", "k", command, [str(source)], str(folder)) == library


def test_a_failed_build_names_the_owner_and_shows_the_compiler_output(tmp_path):
    source = tmp_path / "kernel.cc"
    source.write_text("int f() { return 1; }")
    with pytest.raises(RuntimeError, match=r"(?s)t: compiling 'k' failed \(exit 3\).*told to fail"):
        native_build.build_library("t", "k", _command(tmp_path, 0, "fail"), [str(source)], str(tmp_path / "kernels"))
    assert not [name for name in os.listdir(tmp_path / "kernels") if name.endswith((".so", ".log"))]


def test_the_same_sources_in_another_folder_reuse_the_build_and_changed_ones_do_not(tmp_path):
    folder = tmp_path / "kernels"
    libraries = []
    for checkout, text in (("checkout_a", "int f() { return 1; }"), ("checkout_b", "int f() { return 1; }"),
                           ("checkout_c", "int f() { return 2; }")):
        source = tmp_path / checkout / "src" / "kernel.cc"
        source.parent.mkdir(parents=True)
        source.write_text(text)
        # the command names the source and its folder, as a real build's does
        command = _command(tmp_path, 0) + [f"-I{source.parent}", str(source)]
        libraries.append(native_build.build_library("t", "k", command, [str(source)], str(folder)))
    assert libraries[0] == libraries[1] != libraries[2]
    assert (tmp_path / "runs.txt").read_text().count("run") == 2  # checkout_b compiled nothing


FAKE_UNIT_COMPILER = textwrap.dedent("""
    import os, sys, time
    log = sys.argv[1]
    if "-c" in sys.argv:  # one unit: note its start, wait (up to 20 s) for a second unit to start, write the object
        unit, out = sys.argv[sys.argv.index("-c") + 1], sys.argv[-1]
        with open(log, "a") as runs:
            runs.write(f"start {os.path.basename(unit)}\\n")
        deadline = time.time() + 20
        while open(log).read().count("start") < 2 and time.time() < deadline:
            time.sleep(0.02)
        side_by_side = open(log).read().count("start") >= 2
        with open(out, "w") as handle:
            handle.write(f"{os.path.basename(unit)} {'side by side' if side_by_side else 'alone'}\\n")
    else:  # the link: the objects come first, right after the compiler
        objects = [name for name in sys.argv[1:] if name.endswith(".o")]
        log = sys.argv[len(objects) + 1]
        with open(log, "a") as runs:
            runs.write(f"link {sys.argv.index(objects[0])}\\n")
        with open(sys.argv[-1], "w") as out:
            out.write("".join(open(name).read() for name in objects))
""")


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs to compile two units side by side")
def test_units_compile_side_by_side_into_objects_then_link(tmp_path):
    script = tmp_path / "fake_cxx"  # one executable, as a compiler is: the link puts the objects right after it
    script.write_text(f"#!{sys.executable}\n" + FAKE_UNIT_COMPILER)
    script.chmod(0o755)
    units = []
    for name in ("a.cc", "b.cc", "c.cc"):
        units.append(tmp_path / name)
        units[-1].write_text(f"int {name[0]}() {{ return 1; }}")
    command = [str(script), str(tmp_path / "runs.txt")]
    folder = tmp_path / "kernels"
    library = native_build.build_library("t", "k", command, [str(unit) for unit in units], str(folder),
                                         units=[str(unit) for unit in units])
    lines = open(library).read().splitlines()
    assert [line.split()[0] for line in lines] == ["a.cc", "b.cc", "c.cc"]  # every unit, in order
    assert lines[0].endswith("side by side") and lines[1].endswith("side by side")
    log = (tmp_path / "runs.txt").read_text().splitlines()
    assert log[-1] == "link 1" and sum(line.startswith("start") for line in log) == 3
    assert sorted(os.listdir(folder)) == sorted([os.path.basename(library), os.path.basename(library) + ".lock"])
    # an unchanged build is reused: no unit compiles again
    assert native_build.build_library("t", "k", command, [str(unit) for unit in units], str(folder),
                                      units=[str(unit) for unit in units]) == library
    assert (tmp_path / "runs.txt").read_text().count("start") == 3


def test_a_failed_unit_names_it_and_leaves_no_objects(tmp_path):
    units = [tmp_path / "good.cc", tmp_path / "bad.cc"]
    units[0].write_text("int f() { return 1; }")
    units[1].write_text("this is not C++")
    folder = tmp_path / "kernels"
    compiler = native_build.find_compiler("t")
    with pytest.raises(RuntimeError, match=r"(?s)t: compiling 'k' failed.*each of .*bad\.cc.*bad\.cc"):
        native_build.build_library("t", "k", [compiler, "-shared", "-fPIC"], [str(unit) for unit in units],
                                   str(folder), units=[str(unit) for unit in units])
    assert not [name for name in os.listdir(folder) if name.endswith((".so", ".o", ".log", ".tmp"))]
