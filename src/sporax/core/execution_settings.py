"""``set_deterministic``, ``set_recursion_limit``, ``launch_blocking``: MindSpore's top-level execution settings.

- ``set_deterministic(True)`` sets the context's ``deterministic`` to 'ON'. XLA's CPU kernels are
  deterministic already; on GPU XLA reads ``--xla_gpu_deterministic_ops`` when the backend starts,
  so the switch is added to ``XLA_FLAGS`` when no JAX backend is running yet (and reported
  otherwise).
- ``set_recursion_limit(n)`` bounds the call depth of graph compilation. sporax compiles by
  running ``construct`` in Python, so the bound is Python's recursion limit, raised to leave room
  for ``n`` nested calls (it is never lowered below Python's current limit).
- ``launch_blocking()`` makes every operator finish before the call returns, so an error surfaces
  at the line that caused it: JAX's CPU dispatch turns synchronous
  (``jax_cpu_enable_async_dispatch``), and CUDA launches block (``CUDA_LAUNCH_BLOCKING=1``) when no
  GPU backend has started yet.
"""
import os

from sporax.core import context, jax_private, process_setup
from sporax.log import warning as _warning

_FRAMES_PER_CALL = 8    # Python frames one traced call of a Cell or function takes in sporax


def set_deterministic(deterministic):
    """Make operators deterministic (``True``) or allow faster non-deterministic kernels (``False``).

    Args:
        deterministic (bool): the setting.

    Example:
        >>> import sporax as ms
        >>> ms.set_deterministic(True)
        >>> ms.get_context("deterministic")
        'ON'
    """
    if not isinstance(deterministic, bool):
        raise TypeError(f"For 'set_deterministic', the 'deterministic' must be a bool, but got "
                        f"{type(deterministic).__name__}.")
    context.set_context(deterministic="ON" if deterministic else "OFF")
    if deterministic and "--xla_gpu_deterministic_ops" not in os.environ.get("XLA_FLAGS", ""):
        backends = jax_private.started_backends()
        if backends & {"cuda", "rocm", "gpu"}:
            _warning("set_deterministic: JAX backends already run; GPU determinism (XLA's "
                     "--xla_gpu_deterministic_ops) applies to processes that call it before the first op.")
        elif not backends:
            process_setup.add_xla_flag("--xla_gpu_deterministic_ops=true")


def set_recursion_limit(recursion_limit=1000):
    """Allow graph compilation ``recursion_limit`` nested calls deep.

    Args:
        recursion_limit (int): a positive int. Default: 1000.

    Example:
        >>> import sporax as ms
        >>> ms.set_recursion_limit(2000)
    """
    if isinstance(recursion_limit, bool) or not isinstance(recursion_limit, int) or recursion_limit <= 0:
        raise ValueError(f"For 'set_recursion_limit', the 'recursion_limit' must be a positive int, but got "
                         f"{recursion_limit!r}.")
    process_setup.raise_recursion_limit(recursion_limit * _FRAMES_PER_CALL)


def launch_blocking():
    """Run operators synchronously: each op completes before its call returns (slower; for debugging).

    Example:
        >>> import sporax as ms
        >>> ms.launch_blocking()  # doctest: +SKIP
    """
    process_setup.synchronous_cpu_dispatch()
    backends = jax_private.started_backends()
    if backends & {"cuda", "rocm", "gpu"}:
        _warning("launch_blocking: the GPU backend already runs; CUDA_LAUNCH_BLOCKING applies to processes that "
                 "call it before the first op.")
    else:
        process_setup.block_cuda_launches()
