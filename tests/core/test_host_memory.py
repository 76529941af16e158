"""sporax's glibc malloc options: a large block comes from the reusable heap, not a fresh mmap."""
import os
import subprocess
import sys

import pytest

from sporax.core import host_memory

_LIBC = host_memory.glibc()
pytestmark = pytest.mark.skipif(_LIBC is None or not hasattr(_LIBC, "mallinfo2"),
                                reason="the malloc options concern glibc on Linux (mallinfo2: glibc >= 2.33)")

# Prints how many bytes of a fresh 96 MiB malloc block glibc serves by mmap (mallinfo2's hblkhd).
PROBE = """
import ctypes, sporax
from sporax.core import host_memory
class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = host_memory.glibc()
libc.mallinfo2.restype = Info
libc.malloc.restype = ctypes.c_void_p
before = libc.mallinfo2().hblkhd
block = libc.malloc(96 * 2**20)
print(libc.mallinfo2().hblkhd - before)
libc.free(ctypes.c_void_p(block))
"""


def _mapped_bytes(**variables):
    env = {name: value for name, value in os.environ.items()
           if name not in ("SPORAX_HOST_MALLOC", "GLIBC_TUNABLES", "LD_PRELOAD") and not name.startswith("MALLOC_")}
    env.update(variables)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return int(out.stdout.split()[-1])


def test_a_large_block_is_served_from_the_heap_after_import():
    assert _mapped_bytes() == 0


def test_the_switch_and_the_users_own_tuning_leave_glibc_as_it_is():
    assert _mapped_bytes(SPORAX_HOST_MALLOC="off") >= 96 * 2**20
    assert _mapped_bytes(GLIBC_TUNABLES="glibc.malloc.check=0") >= 96 * 2**20


def test_configure_reports_whether_it_set_the_options(monkeypatch):
    monkeypatch.setenv("SPORAX_HOST_MALLOC", "off")
    assert host_memory.configure() is False
    monkeypatch.delenv("SPORAX_HOST_MALLOC")
    monkeypatch.setenv("MALLOC_ARENA_MAX", "2")
    assert host_memory.configure() is False
