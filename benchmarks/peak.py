"""The machine's measured float32 peak: a large matrix product through XLA, oneDNN and NumPy.

``python benchmarks/peak.py [--size 2048] [--seconds 3]`` prints one line per library: the best
GFLOP/s of a square float32 product (2 n^3 FLOPs) over repeated calls on all usable cores, wall
time. The suite (``suite.py``) runs it in its own process and reports each workload's model
FLOPs per second as a fraction of the best of these. A product this large keeps the vector units
busy from cache-blocked tiles, so it is as close to the cores' peak as a real kernel gets; a
training step that reaches half of it is doing well on CPU.

oneDNN is Intel's ``onednn-cpu-gomp`` wheel (the one sporax's kernels use), called through its C
``dnnl_sgemm``; NumPy's product is whatever BLAS NumPy was built with (OpenBLAS in PyPI's wheels).
A library that is not installed is reported as such, not guessed.
"""
import argparse
import ctypes
import importlib.metadata
import json
import os
import time

import numpy as np


def _best_rate(call, flops, seconds, least=3):
    """(best wall FLOP/s, best FLOP per CPU-second) over calls of ``call()`` for about ``seconds``
    (at least ``least`` timed calls, after one untimed call). The second, times the usable cores,
    estimates the quiet machine's peak on a loaded one: CPU time does not count the time the
    threads wait for a core."""
    call()
    best, best_cpu, started, calls = 0.0, 0.0, time.perf_counter(), 0
    while calls < least or time.perf_counter() - started < seconds:
        begin, begin_cpu = time.perf_counter(), time.process_time()
        call()
        best = max(best, flops / (time.perf_counter() - begin))
        best_cpu = max(best_cpu, flops / max(time.process_time() - begin_cpu, 1e-9))
        calls += 1
    return best, best_cpu


def xla(size, seconds):
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    a = jnp.asarray(rng.standard_normal((size, size), dtype=np.float32))
    b = jnp.asarray(rng.standard_normal((size, size), dtype=np.float32))
    product = jax.jit(jnp.matmul)
    return _best_rate(lambda: product(a, b).block_until_ready(), 2.0 * size ** 3, seconds)


def numpy(size, seconds):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((size, size), dtype=np.float32)
    b = rng.standard_normal((size, size), dtype=np.float32)
    out = np.empty((size, size), np.float32)
    return _best_rate(lambda: np.matmul(a, b, out=out), 2.0 * size ** 3, seconds)


def _onednn_library():
    found = importlib.metadata.distribution("onednn-cpu-gomp")
    for path in found.files or ():
        if str(path).endswith("libdnnl.so.3"):
            return ctypes.CDLL(os.path.realpath(found.locate_file(path)))
    raise FileNotFoundError("onednn-cpu-gomp has no libdnnl.so.3")


def onednn(size, seconds):
    library = _onednn_library()
    sgemm = library.dnnl_sgemm
    dim, pointer = ctypes.c_int64, ctypes.c_void_p
    sgemm.argtypes = [ctypes.c_char, ctypes.c_char, dim, dim, dim, ctypes.c_float, pointer, dim, pointer, dim,
                      ctypes.c_float, pointer, dim]
    sgemm.restype = ctypes.c_int
    rng = np.random.default_rng(0)
    a = rng.standard_normal((size, size), dtype=np.float32)
    b = rng.standard_normal((size, size), dtype=np.float32)
    out = np.zeros((size, size), np.float32)

    def call():
        status = sgemm(b"N", b"N", size, size, size, 1.0, a.ctypes.data, size, b.ctypes.data, size, 0.0,
                       out.ctypes.data, size)
        if status != 0:
            raise RuntimeError(f"dnnl_sgemm returned status {status}")
    rates = _best_rate(call, 2.0 * size ** 3, seconds)
    if not np.allclose(out[:4, :4], a[:4] @ b[:, :4], rtol=1e-3, atol=1e-2):
        raise RuntimeError("dnnl_sgemm's product differs from NumPy's")
    return rates


LIBRARIES = {"xla": xla, "onednn": onednn, "numpy": numpy}


def measure(size=2048, seconds=3.0, libraries=tuple(LIBRARIES)):
    """{library: [wall GFLOP/s, GFLOP per CPU-second], or the reason it could not be measured (a str)}."""
    results = {}
    for name in libraries:
        try:
            results[name] = [rate / 1e9 for rate in LIBRARIES[name](size, seconds)]
        except (ImportError, OSError, RuntimeError, AttributeError, importlib.metadata.PackageNotFoundError) as error:
            results[name] = f"{type(error).__name__}: {error}"
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2048, help="n of the n x n float32 product")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of timed calls per library")
    parser.add_argument("--library", action="append", choices=sorted(LIBRARIES), help="measure only these")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    args = parser.parse_args(argv)
    results = measure(args.size, args.seconds, args.library or tuple(LIBRARIES))
    if args.json:
        print(json.dumps(results))
        return
    for name, value in results.items():
        shown = (f"{value[0]:8.1f} GFLOP/s wall, {value[1]:8.1f} GFLOP per CPU-second" if isinstance(value, list)
                 else f"not measured ({value})")
        print(f"{name:<7} {args.size}x{args.size} float32 product: {shown}")


if __name__ == "__main__":
    main()
