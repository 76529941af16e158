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
``find_compiler(owner)`` is ``$CXX``, else ``c++``, ``g++`` or ``clang++`` on the PATH. Errors name
``owner`` and, for a failed build, show the command and the compiler's last output.
"""
import hashlib
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
# into place, unless an earlier build already made the library.
_BUILDER = """
import fcntl, os, subprocess, sys
library, partial, log, *command = sys.argv[1:]
with open(library + ".lock", "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    if os.path.exists(library):
        sys.exit(0)
    with open(log, "w") as out:
        code = subprocess.call(command + ["-o", partial], stdout=out, stderr=subprocess.STDOUT)
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


def build_library(owner, name, command, sources, folder, suffix=".so"):
    """Compile with ``command`` (everything but ``-o``) into ``folder``; reuse an identical earlier build."""
    digest = hashlib.sha256(_without_source_folders(command, sources).encode())
    for path in sources:
        with open(path, "rb") as handle:
            digest.update(handle.read())
    os.makedirs(folder, exist_ok=True)
    library = os.path.join(folder, f"{name}.{digest.hexdigest()[:16]}{suffix}")
    if not os.path.exists(library):
        partial, log = f"{library}.{os.getpid()}.tmp", f"{library}.{os.getpid()}.log"
        # its own session: a signal or timeout that stops this caller does not stop the build
        builder = subprocess.Popen([sys.executable, "-c", _BUILDER, library, partial, log] + list(command),
                                   start_new_session=True)
        code = builder.wait()
        output = ""
        if os.path.exists(log):
            with open(log, errors="replace") as handle:
                output = handle.read()
            os.remove(log)
        if code != 0 or not os.path.exists(library):
            raise RuntimeError(f"{owner}: compiling '{name}' failed (exit {code}).\n"
                               f"Command: {shlex.join(command)}\n{output[-4000:]}")
    return library
