"""Temporary files of atomic writes, and the removal of those an interrupted save left behind.

Every atomic writer of sporax (checkpoints, safetensors, export/MindIR/ONNX, MindRecord shards,
strategy files) writes ``path`` through a temporary file in the same folder and renames it over
``path`` at the end. A process killed mid-write leaves the temporary file; nothing else would ever
remove it, so each save or load of ``path`` first removes the ones of earlier, dead writers of
that same ``path``.

A temporary file is named ``.<name>.sporax-<pid>-<random>.tmp`` and its writer holds an
exclusive ``flock`` on it until the rename. A leftover is removed only when both say its writer
is gone: the pid is not a running process, and the lock can be taken. The pid alone could be
reused or belong to another machine sharing the folder; the lock alone has a short window
between creating the file and locking it. A live writer's file is never touched.

This module is standard library only: ``sporax.mindrecord`` (NumPy only) imports it too.
"""
import errno
import glob
import os
import secrets

try:
    import fcntl
except ImportError:  # Windows: no flock; the pid check alone decides
    fcntl = None

_MARK = ".sporax-"
_SUFFIX = ".tmp"


def _prefix(path):
    folder, name = os.path.split(os.path.abspath(path))
    return folder, f".{name}{_MARK}"


def create(path):
    """Create and lock a new temporary file for ``path``; returns ``(open binary file, its path)``.

    The file stays locked while the returned handle is open; close it before renaming.
    """
    folder, prefix = _prefix(path)
    os.makedirs(folder, exist_ok=True)
    while True:
        temporary = os.path.join(folder, f"{prefix}{os.getpid()}-{secrets.token_hex(4)}{_SUFFIX}")
        try:
            descriptor = os.open(temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        break
    if fcntl is not None:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
    return os.fdopen(descriptor, "w+b"), temporary


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except OSError as error:
        return error.errno == errno.EPERM  # it exists, owned by another user
    return True


def _writer_gone(temporary):
    """True when nothing writes ``temporary`` any more (never true for a live writer)."""
    try:
        pid = int(os.path.basename(temporary).rsplit(_MARK, 1)[1].split("-", 1)[0])
    except (IndexError, ValueError):
        return False
    if pid == os.getpid() or _pid_alive(pid):
        return False
    if fcntl is None:
        return True
    try:
        descriptor = os.open(temporary, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # still locked: its writer lives (on another host or in another pid namespace)
    finally:
        os.close(descriptor)
    return True


def remove_stale(path):
    """Remove the temporary files that dead writers of ``path`` left; returns the paths removed.

    Safe to call at any time, from any process: a file a live process is writing is kept.
    """
    folder, prefix = _prefix(path)
    removed = []
    for temporary in glob.glob(os.path.join(glob.escape(folder), glob.escape(prefix) + "*" + _SUFFIX)):
        if _writer_gone(temporary):
            try:
                os.unlink(temporary)
                removed.append(temporary)
            except OSError:
                pass  # removed by a concurrent cleaner, or not ours to remove
    return removed


def discard(temporary):
    """Remove ``temporary`` if it is still there (the write failed or was abandoned)."""
    try:
        os.unlink(temporary)
    except FileNotFoundError:
        pass
