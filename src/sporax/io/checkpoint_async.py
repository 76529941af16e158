"""``load_checkpoint_async``: read a checkpoint on a background thread while the caller builds the model."""
from concurrent.futures import ThreadPoolExecutor

from sporax.io.checkpoint import load_checkpoint


class ParamDictFuture:
    """The pending result of ``load_checkpoint_async``; ``result()`` waits and returns the parameter dict."""

    def __init__(self, executor, param_dict_future):
        self._executor = executor
        self._future = param_dict_future

    def result(self):
        """Wait for the load and return ``{name: Parameter}`` (re-raising the load's error, if any)."""
        try:
            return self._future.result()
        finally:
            self._executor.shutdown()


def load_checkpoint_async(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                          dec_mode="AES-GCM", specify_prefix=None, choice_func=None):
    """Start ``load_checkpoint`` on a worker thread; returns a ``ParamDictFuture``.

    Example:
        >>> from sporax import load_checkpoint_async
        >>> future = load_checkpoint_async("net.ckpt")  # doctest: +SKIP
        >>> param_dict = future.result()  # doctest: +SKIP
    """
    file_format = "safetensors" if str(ckpt_file_name).endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=1)
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode,
                             specify_prefix, choice_func, format=file_format)
    return ParamDictFuture(executor, future)
