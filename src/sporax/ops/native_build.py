"""Compiling C++ sources into a shared library once, for ``CustomOpBuilder`` and sporax's own kernels.

Contract: ``build_library(owner, name, command, sources, folder)`` returns the path of a library
that ``command + ["-o", path]`` produced. The path carries a hash of the command and of every file
in ``sources``, so an unchanged build is reused and a changed one gets a new file (a process cannot
load a changed library again under the same path). The folders holding ``sources`` count in the hash
as a placeholder, not by name: the same sources in another checkout (a clone, a worktree, a copy of
the package) reuse the build instead of compiling again, which took 20-36 CPU s in a compiler process
of its own and 90-180 s of wall time on a loaded 2-core machine, inside the first step of any model
using sporax's kernels (their contents are hashed, so a changed source still gets a new file). The
library is written under a temporary name and renamed into place, so a crash or a concurrent build
never leaves a partial file behind. The compiler runs in a builder process of its own session holding
a lock on the library's name: a caller interrupted while it waits (a test's timeout, Ctrl-C) leaves
the build to finish, and the next caller waits for that build instead of starting over (a build takes
tens of seconds of CPU on a busy machine).
With ``units`` (the sources left out of the command), each unit compiles to an object of its own, as many at
once as the process may use CPUs, and the objects are linked: sporax's oneDNN kernels, five sources, built in
one compiler process one after the other, took ~20 CPU s on one core of two.
``find_compiler(owner)`` is ``$CXX``, else ``c++``, ``g++`` or ``clang++`` on the PATH. Errors name
``owner`` and, for a failed build, show the command and the compiler's last output.
"""
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys


def find_compiler(owner):
    """The C++ compiler to use; RuntimeError naming ``owner`` when there is none."""
    compiler = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        raise RuntimeError(f"{owner}: no C++ compiler found (looked for $CXX, c++, g++, clang++); "
                           "install one (for example: apt-get install g++).")
    return compiler


# The builder: under an exclusive lock on ``<library>.lock``, compile to a temporary file and rename it
# into place, unless an earlier build already made the library. With ``units``, each unit is compiled to an
# object of its own, as many at once as this process may use CPUs, and the objects are then linked: one compiler
# process for five oneDNN sources took ~20 CPU s one after the other, on one core of two.
_BUILDER = """
import concurrent.futures, fcntl, json, os, subprocess, sys
library, partial, log, spec = sys.argv[1:]
spec = json.loads(spec)
command, units = spec["command"], spec["units"]
with open(library + ".lock", "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    if os.path.exists(library):
        sys.exit(0)
    objects = [f"{partial}.{index}.o" for index in range(len(units))]
    with open(log, "w") as out:
        def run(arguments):
            return subprocess.call(arguments, stdout=out, stderr=subprocess.STDOUT)
        # macOS has no affinity call
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        jobs = max(1, min(len(units), cpus or 1))
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            codes = list(pool.map(run, [command + ["-c", unit, "-o", name] for unit, name in zip(units, objects)]))
        code = next((code for code in codes if code), 0)
        if code == 0:  # the objects before the libraries they need (a linker drops an unneeded library it meets first)
            code = run(command[:1] + objects + command[1:] + ["-o", partial])
    for name in objects:
        if os.path.exists(name):
            os.remove(name)
    if code == 0:
        os.replace(partial, library)
    sys.exit(code)
"""


def _without_source_folders(command, sources):
    """``command`` as one string with every folder of ``sources`` written as ``<sources>``."""
    text = " ".join(command)
    # longest first: a folder inside another is replaced before its parent
    for source_folder in sorted({os.path.dirname(os.path.abspath(path)) for path in sources}, key=len, reverse=True):
        if source_folder != os.path.dirname(source_folder):  # not the file system's root: "/" is in every path
            text = text.replace(source_folder, "<sources>")
    return text


def build_library(owner, name, command, sources, folder, suffix=".so", units=()):
    """Compile with ``command`` (everything but ``-o``) into ``folder``; reuse an identical earlier build.

    ``units``: source files left out of ``command``, each compiled by ``command + ["-c", unit, "-o", object]``,
    side by side, then linked by ``command`` with the objects first.
    """
    digest = hashlib.sha256(_without_source_folders(list(command) + list(units), sources).encode())
    for path in sources:
        with open(path, "rb") as handle:
            digest.update(handle.read())
    os.makedirs(folder, exist_ok=True)
    library = os.path.join(folder, f"{name}.{digest.hexdigest()[:16]}{suffix}")
    if not os.path.exists(library):
        partial, log = f"{library}.{os.getpid()}.tmp", f"{library}.{os.getpid()}.log"
        # its own session: a signal or timeout that stops this caller does not stop the build
        spec = json.dumps({"command": list(command), "units": list(units)})
        builder = subprocess.Popen([sys.executable, "-c", _BUILDER, library, partial, log, spec],
                                   start_new_session=True)
        code = builder.wait()
        output = ""
        if os.path.exists(log):
            with open(log, errors="replace") as handle:
                output = handle.read()
            os.remove(log)
        if code != 0 or not os.path.exists(library):
            shown = shlex.join(command) + (f" (each of {shlex.join(units)} on its own, then linked)" if units else "")
            raise RuntimeError(f"{owner}: compiling '{name}' failed (exit {code}).\n"
                               f"Command: {shown}\n{output[-4000:]}")
    return library
