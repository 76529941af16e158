"""Runtime helpers of ``mindspore.runtime`` that JAX's runtime can honour: ``synchronize`` and
``launch_blocking`` (this module serves the ``mindspore.runtime`` path; the debugging tutorial calls
``mindspore.runtime.launch_blocking()``)."""
import jax

from sporax.core.execution_settings import launch_blocking  # noqa: F401 - served as mindspore.runtime's


def synchronize():
    """Wait until every computation dispatched so far has finished on every device.

    JAX dispatches work asynchronously; this blocks on all live device arrays (the outputs of that
    work), as MindSpore's ``synchronize`` waits on all streams.

    Example:
        >>> import sporax
        >>> sporax.synchronize()
    """
    for array in jax.live_arrays():
        array.block_until_ready()


__all__ = ["synchronize", "launch_blocking"]
