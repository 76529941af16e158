"""glibc malloc options sporax sets for speed: a step's large buffers are reused, not mapped afresh.

Contract: ``configure()`` (run on import of sporax) sets, on Linux with glibc, the malloc options
of ``OPTIONS`` through ``mallopt`` unless ``SPORAX_HOST_MALLOC=off`` or the user already tunes
malloc (``GLIBC_TUNABLES`` naming ``glibc.malloc``, or a ``MALLOC_*_`` variable). It returns
whether it set them. Elsewhere (macOS, musl, Windows) it does nothing.

Why: XLA:CPU allocates the temporary buffers of every program run with ``malloc`` and frees them
when the run ends. glibc serves blocks above its mmap threshold (32 MiB at most) with fresh
``mmap`` pages and unmaps them on free, so every training step page-faults and zero-fills its
whole working set again. With ``mmap`` off for large blocks, the kernel's pages stay in the
heap and the next step reuses them; a trim threshold of 2 GiB and 256 MiB of top padding keep
the heap from shrinking and growing each step.

Measured (``benchmarks/suite.py`` workloads, sporax GRAPH, jaxlib 0.10.2, 2-core AMD EPYC, quiet
machine, runs alternated): LSTM tagger b32 step 36-45 -> 27-33 ms; Transformer LM b16, ResNet-18 b32,
LeNet5 b32/b256 and the MLP unchanged within noise.

Cost: memory the process frees stays mapped for reuse (up to the trim threshold) instead of
returning to the system, so the resident size stays near its high-water mark.
"""
import ctypes
import ctypes.util
import os
import platform

# mallopt parameter numbers from glibc's <malloc.h>.
M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_MAX = -1, -2, -4
OPTIONS = ((M_MMAP_MAX, 0), (M_TRIM_THRESHOLD, 2**31 - 1), (M_TOP_PAD, 256 * 2**20))
_USER_VARIABLES = ("MALLOC_MMAP_MAX_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_",
                   "MALLOC_ARENA_MAX", "LD_PRELOAD")


def _user_tunes_malloc():
    if "glibc.malloc" in os.environ.get("GLIBC_TUNABLES", ""):
        return True
    # LD_PRELOAD usually brings another allocator (jemalloc, tcmalloc): its settings are the user's.
    return any(os.environ.get(name) for name in _USER_VARIABLES)


def glibc():
    """The process's C library as a ctypes handle when it is glibc on Linux, else None."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


def configure():
    """Set sporax's malloc options where glibc is the allocator and the user set none of their own."""
    if os.environ.get("SPORAX_HOST_MALLOC", "").strip().lower() in ("off", "0", "false", "no"):
        return False
    if _user_tunes_malloc():
        return False
    libc = glibc()
    if libc is None:
        return False
    return all(libc.mallopt(ctypes.c_int(parameter), ctypes.c_int(value)) == 1 for parameter, value in OPTIONS)
