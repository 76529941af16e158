"""Data sinking: ``sink_size`` training steps per call over a prefetched block of batches.

``SinkLoop(network)`` takes a block of batches stacked along a new leading axis and runs the
network once per batch, returning the last step's outputs. On accelerators the steps compile
into one ``lax.scan`` program (one device call per sink, as MindSpore's loop sink). On CPU, XLA
runs a step about half as fast inside ``scan`` as on its own (LeNet5 b32: 227 against 450
steps/s), so there the already compiled step is dispatched once per batch, asynchronously.
``BlockFeeder`` reads blocks from a dataset in a background thread, so the next block is
prepared while the current one runs.
"""
import queue
import threading

import jax
import numpy as np

from sporax.core.tensor import Tensor
from sporax.graph.cell_jit import call_compiled, compile_phase_key
from sporax.graph.jit import jit
from sporax.state.program import build_program
from sporax.state.program_cache import ProgramCache
from sporax.state.scan import scan_states


class SinkLoop:
    """Runs ``network(*batch)`` over every batch of a stacked block (see the module docstring)."""

    PER_STEP_BACKENDS = ("cpu",)  # backends where a Python loop of compiled steps beats scan

    def __init__(self, network):
        self.network = network
        self.name = f"sink({type(network).__name__})"
        self.cache = ProgramCache(self.name, network, lift_arguments=False)
        self._step = None

    def __call__(self, stacked):
        if jax.default_backend() in self.PER_STEP_BACKENDS:
            return self._per_step(stacked)
        arrays = tuple(jax.numpy.asarray(column) if not isinstance(column, jax.Array) else column
                       for column in stacked)
        phase = compile_phase_key(self.network) if hasattr(self.network, "_construct_eager") else None
        program, arrays = self.cache.lookup(arrays, {}, self._build, phase=phase)
        if program.eager:  # Python the compiler cannot trace: run the steps one by one
            outputs = None
            for row in range(arrays[0].shape[0]):
                outputs = self.network(*[Tensor._wrap(column[row]) for column in arrays])
            return outputs
        outputs = program(arrays)
        return jax.tree_util.tree_map(lambda leaf: Tensor._wrap(leaf[-1]), outputs)

    def _build(self, args, kwargs, arrays, discovered):
        network, name = self.network, self.name

        def body(traced):
            return scan_states(discovered.states, network, traced, name)

        return build_program(body, discovered, arrays, name)

    def _per_step(self, stacked):
        """Each batch through the compiled step: a Cell's GRAPH_MODE program, or ``jit`` of a function."""
        if self._step is None:
            network = self.network
            if hasattr(network, "_construct_eager"):
                self._step = lambda *batch: call_compiled(network, batch, {})
            else:
                self._step = jit(network)
        columns = [np.asarray(column) for column in stacked]  # host views: no copy on CPU
        outputs = None
        for row in range(columns[0].shape[0]):
            outputs = self._step(*[Tensor._wrap(column[row]) for column in columns])
        return outputs


class BlockFeeder:
    """Endless blocks of ``block_size`` batches from a dataset, stacked per column on the device.

    The dataset restarts when it runs out (the data channel continues across epochs, as on
    MindSpore's device queue). Blocks are prepared one ahead in a background thread.
    """

    def __init__(self, dataset, block_size, prefetch=1, blocks=None, start_step=None):
        self.dataset = dataset
        self.block_size = block_size
        self._start_step = start_step  # a global step to resume the data at (Model.train)
        self._remaining = blocks  # how many blocks the caller will take (None: no limit)
        self._queue = queue.Queue(maxsize=prefetch)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._fill, name="sporax-sink-feeder", daemon=True)
        self._thread.start()

    def _rows(self):
        # One endless iterator: each pass over the dataset is a new epoch of the pipeline, so
        # shuffles differ from pass to pass as they do across MindSpore's epochs.
        if self._start_step is None:
            iterator = self.dataset.create_tuple_iterator(num_epochs=-1, output_numpy=True)
        else:
            iterator = self.dataset._resumed_iterator(self._start_step, -1, output_numpy=True)
        while not self._stop.is_set():
            produced = False
            for row in iterator:
                produced = True
                yield row
                if self._stop.is_set():
                    return
            if not produced:
                raise ValueError("The dataset of a sink loop yielded no batch.")

    def _fill(self):
        try:
            rows = self._rows()
            while not self._stop.is_set() and self._remaining != 0:
                if self._remaining is not None:
                    self._remaining -= 1
                block = [next(rows) for _ in range(self.block_size)]
                columns = [jax.device_put(np.stack([row[i] for row in block])) for i in range(len(block[0]))]
                self._put(columns)
        except BaseException as error:  # delivered to the consumer
            self._put(error)

    def _put(self, item):
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def next_block(self):
        item = self._queue.get()
        if isinstance(item, BaseException):
            raise item
        return item

    def close(self):
        self._stop.set()
        try:
            while True:
                self._queue.get_nowait()
        except queue.Empty:
            pass
        self._thread.join(timeout=5)
