"""PyNative per-op cost: CPU microseconds of one eager op on small Tensors (sporax's Python, dispatch and launch).

Each op runs ``--number`` times per round, ``--repeat`` rounds; the best round's main-thread CPU time per call
(``time.thread_time``: what other processes' load moves least) is printed beside raw JAX's (``jnp`` and one
jitted call), the floor sporax's dispatch is measured against. The ops are those a PyNative loop runs outside
its compiled Cells: metrics, indexing, casts.

    PYTHONPATH=src python3 benchmarks/pynative_eager_ops.py
    PYTHONPATH=src python3 benchmarks/pynative_eager_ops.py --only 'x[labels]' --only 'x.astype(int32)'
"""
import argparse
import time
import timeit

import jax
import jax.numpy as jnp
import numpy as np


def cases():
    """(name, call) pairs over an (8, 10) Float32 Tensor ``x`` and (8,) Int32 ``labels``."""
    import sporax as ms
    from sporax import ops
    ms.set_context(mode=ms.PYNATIVE_MODE)
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.random((8, 10), np.float32))
    y = ms.Tensor(rng.random((8, 10), np.float32))
    labels = ms.Tensor(np.arange(8, dtype=np.int32))
    array, other = x._array, y._array
    add = jax.jit(jnp.add)
    return {
        "jnp: a + b": lambda: array + other,
        "jax.jit add": lambda: add(array, other),
        "x + y": lambda: x + y,
        "x * 2.0": lambda: x * 2.0,
        "ops.matmul": lambda: ops.matmul(x, y.T),
        "x.argmax(1)": lambda: x.argmax(1),
        "(x.argmax(1) == labels).sum()": lambda: (x.argmax(1) == labels).sum(),
        "x.astype(int32)": lambda: x.astype(ms.int32),
        "x.astype(float16)": lambda: x.astype(ms.float16),
        "x.int()": lambda: x.int(),
        "ops.cast(x, int32)": lambda: ops.cast(x, ms.int32),
        "x[0]": lambda: x[0],
        "x[:, 1:3]": lambda: x[:, 1:3],
        "x[..., 0]": lambda: x[..., 0],
        "x[0, 0].item()": lambda: x[0, 0].item(),
        "x[labels]": lambda: x[labels],
        "x[labels, 2]": lambda: x[labels, 2],
        "ms.Tensor(1.0)": lambda: ms.Tensor(1.0),
        "ops.gather": lambda: ops.gather(x, labels, 0),
        "ops.one_hot": (lambda on, off: lambda: ops.one_hot(labels, 10, on, off))(ms.Tensor(1.0), ms.Tensor(0.0)),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="a case name (repeatable)")
    parser.add_argument("--number", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()
    for name, call in cases().items():
        if options.only and name not in options.only:
            continue
        call()
        call()  # an index structure compiles at its second read
        best = min(timeit.repeat(call, number=options.number, repeat=options.repeat, timer=time.thread_time))
        print(f"{name:32s} {best / options.number * 1e6:8.1f} us", flush=True)


if __name__ == "__main__":
    main()
