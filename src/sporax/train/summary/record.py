"""``SummaryRecord``: write scalars, tensors, images and histograms to a MindSpore summary file.

The file (``{file_prefix}.out.events.summary.{seconds}.{device}.{host}{file_suffix}`` in
``log_dir``) is the event stream MindInsight reads (see ``event_file``). ``add_value`` queues
values; ``record(step)`` also collects what the summary operators (``ops.ScalarSummary`` ...)
produced since the last record, and writes one event holding all of them, grouped by kind in the
order the kinds were first queued. Writes are synchronous (``num_process`` is accepted for
compatibility); ``close`` makes the file read-only, as MindSpore does. The computational graph is
not written: sporax compiles through XLA and has no MindIR graph to store.
"""
import os
import platform
import re
import threading
import time
from collections import OrderedDict

import numpy as np

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.log import warning as _warning
from sporax.nn.cell import Cell
from sporax.ops.operations.summary_ops import take_graph_summary_data, take_summary_data
from sporax.parallel import communication
from sporax.train.summary import event_file
from sporax.train.summary.values import ENCODERS

_NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.\-]*$")
_LINEAGE_PLUGINS = ("graph", "train_lineage", "eval_lineage", "dataset_graph", "custom_lineage_data", "LANDSCAPE")
_instances_lock = threading.Lock()
# MindSpore's private reader of the GRAPH_MODE summary values (``summary_record._get_summary_tensor_data``):
# mindarmour's coverage metrics and concept-drift checks read layer outputs through it.
_get_summary_tensor_data = take_graph_summary_data


def _device_index():
    if communication.GlobalComm.INITED and communication.get_group_size() > 1:
        return communication.get_rank()
    return context.get_context("device_id")


def _to_numpy(plugin, value):
    if not isinstance(value, Tensor):
        raise TypeError(f'For "SummaryRecord", the parameter "value" expect to be Tensor, but got '
                        f'{type(value).__name__}')
    return _checked(plugin, value.asnumpy())


def _checked(plugin, array):
    """The value as MindSpore accepts it per kind: one element, 4-D images, non-scalar tensors."""
    if plugin == "scalar" and array.size != 1:
        raise ValueError(f'For "SummaryRecord", a scalar must have exactly one element, but got shape {array.shape}.')
    if plugin == "image" and array.ndim != 4:
        raise ValueError(f'For "SummaryRecord", the tensor seems not to hold a valid image: expected (N, C, H, W), '
                         f'got shape {array.shape}.')
    if plugin in ("tensor", "histogram") and array.ndim == 0:
        raise ValueError(f'For "SummaryRecord", the {plugin} value should not be a 0-D Tensor.')
    return array


def _check_single_instance():
    if SummaryRecord.count > 0:
        raise RuntimeError(
            "For 'SummaryRecord', only one instance is supported in a training process, you are trying to create a "
            f"new one when the existing instance number is {SummaryRecord.count}. Please check your scripts.")


class SummaryRecord:
    """Write summary data (scalars, tensors, images, histograms) to a MindSpore summary file.

    Only one SummaryRecord may be open in a process at a time (as in MindSpore); use it as a
    context manager or call ``close``.

    Args:
        log_dir (str): the folder of the summary file (created if missing).
        file_prefix (str): the file name's prefix. Default: "events".
        file_suffix (str): the file name's suffix. Default: "_MS".
        num_process (int): accepted for compatibility (writes are synchronous). Default: 32.
        network (Cell): accepted for compatibility; the graph is not written. Default: None.
        max_file_size (int): stop writing (with a warning) once the file would exceed this many bytes.
            Default: None (no limit).
        raise_exception (bool): raise OSError on write failures instead of logging them. Default: False.
        export_options (dict): not supported by sporax (must be None). Default: None.

    Example:
        >>> import tempfile, sporax as ms
        >>> with ms.SummaryRecord(tempfile.mkdtemp()) as record:
        ...     record.add_value("scalar", "loss", ms.Tensor(0.5))
        ...     record.record(1)
        True
    """

    count = 0

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32, network=None,
                 max_file_size=None, raise_exception=False, export_options=None):
        if not isinstance(log_dir, (str, os.PathLike)) or not os.fspath(log_dir):
            raise ValueError(f'For "SummaryRecord", the "log_dir" must be a non-empty str, but got {log_dir!r}.')
        for name, value in (("file_prefix", file_prefix), ("file_suffix", file_suffix)):
            if not isinstance(value, str):
                raise TypeError(f"For 'SummaryRecord', `{name}` should be str, but got type {type(value)}")
            if not _NAME_PATTERN.match(value):
                raise ValueError(f"For 'SummaryRecord', `{name}` may only hold letters, digits, '_', '.' and '-', "
                                 f"but got {value!r}.")
        if max_file_size is not None and (isinstance(max_file_size, bool) or not isinstance(max_file_size, int)):
            raise TypeError(f"For 'SummaryRecord', the 'max_file_size' should be int type, but got type "
                            f"{type(max_file_size)}")
        if not isinstance(raise_exception, bool):
            raise TypeError(f"For 'SummaryRecord', 'raise_exception' must be a bool, but got "
                            f"{type(raise_exception).__name__}.")
        if export_options is not None:
            raise NotImplementedError("SummaryRecord: 'export_options' (exporting tensors as files) is not "
                                      "supported by sporax; pass export_options=None.")
        _check_single_instance()
        self.network = network
        self.raise_exception = raise_exception
        self.max_file_size = max_file_size if max_file_size is None or max_file_size >= 0 else None
        self._mode = "train"
        self._pool = OrderedDict()
        self._closed = False
        self._full = False
        self._graph_warned = False
        directory = os.path.realpath(os.fspath(log_dir))
        os.makedirs(directory, exist_ok=True)
        name = (f"{file_prefix}.out.events.summary.{int(time.time())}.{_device_index()}.{platform.node()}"
                f"{file_suffix}")
        self._path = os.path.join(directory, name)
        self._file = open(self._path, "ab")
        self._size = self._file.tell()
        with _instances_lock:
            _check_single_instance()
            SummaryRecord.count += 1
            self._counted = True
        self._write(event_file.version_event(time.time()))

        take_summary_data()  # values produced before this record was opened belong to no step

    @property
    def log_dir(self):
        """The full path of the summary file."""
        return self._path

    def __enter__(self):
        if self._closed:
            raise ValueError('For "SummaryRecord", SummaryRecord has been closed, please check if close() method '
                             'is called')
        return self

    def __exit__(self, *error):
        self.close()

    def set_mode(self, mode):
        """'train' (record the summary operators' values) or 'eval' (only values given to ``add_value``)."""
        if mode not in ("train", "eval"):
            raise ValueError(f'For "SummaryRecord.set_mode", {mode!r} is not a recognized mode, expect the '
                             'parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin, name, value):
        """Queue ``value`` (a Tensor) under tag ``name`` for the next ``record``.

        Args:
            plugin (str): 'scalar', 'tensor', 'image' ((N, C, H, W), C 1 or 3) or 'histogram'.
            name (str): the tag.
            value (Tensor): the value.
        """
        if plugin in _LINEAGE_PLUGINS:
            raise NotImplementedError(f"SummaryRecord.add_value: the plugin {plugin!r} (MindSpore graph/lineage "
                                      "protobuf objects) is not supported by sporax.")
        if plugin not in ENCODERS:
            raise ValueError(f'For "SummaryRecord.add_value", no such "plugin" of {plugin!r}.')
        if not name or not isinstance(name, str):
            raise ValueError(f'For "SummaryRecord", the parameter "name" type should be str, but got {type(name)}.')
        self._queue(plugin, name, _to_numpy(plugin, value))

    def _queue(self, plugin, name, array):
        entries = self._pool.setdefault(plugin, OrderedDict())
        if name in entries:
            _warning(f"For \"SummaryRecord.add_value\", '{name}/{plugin}' has duplicate values. Only the newest "
                     "one will be recorded.")
        entries[name] = array

    def record(self, step, train_network=None, plugin_filter=None):
        """Write the queued values (and the summary operators' values) as the event of ``step``.

        Args:
            step (int): the training step.
            train_network (Cell): accepted for compatibility (the graph is not written). Default: None.
            plugin_filter (Callable[[str], bool]): write only the kinds it accepts. Default: None.

        Returns:
            bool, whether the record was written (False once closed).
        """
        if isinstance(step, bool) or not isinstance(step, int):
            raise TypeError(f"The type of 'step' must be int, but got {type(step).__name__}.")
        if train_network is not None and not isinstance(train_network, Cell):
            raise TypeError(f"The type of 'train_network' must be Cell or None, but got "
                            f"{type(train_network).__name__}.")
        if self._closed:
            _warning("For 'SummaryRecord', The record writer is closed, please check if close() method is called")
            return False
        if (self.network is not None or train_network is not None) and not self._graph_warned:
            _warning("SummaryRecord: the computational graph is not written (sporax has no MindIR graph).")
            self._graph_warned = True
        operator_values = take_summary_data()
        if self._mode == "train":
            for (plugin, name), array in operator_values.items():
                self._queue(plugin, name, _checked(plugin, array))
        pool, self._pool = self._pool, OrderedDict()
        values = []
        for plugin, entries in pool.items():
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            values.extend(ENCODERS[plugin](name, array) for name, array in entries.items())
        if values:
            self._write(event_file.summary_event(time.time(), step, values))
        return True

    def _write(self, event):
        record = event_file.frame(event)
        if self.max_file_size is not None and self._size + len(record) > self.max_file_size:
            if not self._full:
                _warning(f"SummaryRecord: {self._path} reached max_file_size ({self.max_file_size} bytes); "
                         "further records are not written.")
                self._full = True
            return
        try:
            self._file.write(record)
        except OSError as error:
            if self.raise_exception:
                raise
            _warning(f"SummaryRecord: writing {self._path} failed: {error}")
            return
        self._size += len(record)

    def flush(self):
        """Write buffered records to disk."""
        if not self._closed:
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self):
        """Flush and close the file (made read-only); further ``record`` calls return False."""
        if self._closed:
            return
        self.flush()
        self._file.close()
        os.chmod(self._path, 0o400)
        self._closed = True
        with _instances_lock:
            SummaryRecord.count -= 1

    def __del__(self):
        if not getattr(self, "_closed", True) and getattr(self, "_counted", False):
            self.close()
