"""Compiling C++ sources into a shared library once, for ``CustomOpBuilder`` and sporax's own kernels.

Contract: ``build_library(owner, name, command, sources, folder)`` returns the path of a library
that ``command + ["-o", path]`` produced. The path carries a hash of the command and of every file
in ``sources``, so an unchanged build is reused and a changed one gets a new file (a process cannot
load a changed library again under the same path). The library is written under a temporary name
and renamed into place, so a crash or a concurrent build never leaves a partial file behind.
``find_compiler(owner)`` is ``$CXX``, else ``c++``, ``g++`` or ``clang++`` on the PATH. Errors name
``owner`` and, for a failed build, show the command and the compiler's last output.
"""
import hashlib
import os
import shlex
import shutil
import subprocess


def find_compiler(owner):
    """The C++ compiler to use; RuntimeError naming ``owner`` when there is none."""
    compiler = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        raise RuntimeError(f"{owner}: no C++ compiler found (looked for $CXX, c++, g++, clang++); "
                           "install one (for example: apt-get install g++).")
    return compiler


def build_library(owner, name, command, sources, folder, suffix=".so"):
    """Compile with ``command`` (everything but ``-o``) into ``folder``; reuse an identical earlier build."""
    digest = hashlib.sha256(" ".join(command).encode())
    for path in sources:
        with open(path, "rb") as handle:
            digest.update(handle.read())
    os.makedirs(folder, exist_ok=True)
    library = os.path.join(folder, f"{name}.{digest.hexdigest()[:16]}{suffix}")
    if not os.path.exists(library):
        partial = f"{library}.{os.getpid()}.tmp"
        result = subprocess.run(command + ["-o", partial], capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{owner}: compiling '{name}' failed (exit {result.returncode}).\n"
                               f"Command: {shlex.join(command)}\n{result.stderr[-4000:]}")
        os.replace(partial, library)
    return library
