"""``DatasetHelper``, ``connect_network_with_dataset`` and ``data_sink``: custom loops that sink data.

In sink mode a DatasetHelper yields one empty input tuple per epoch, and the network returned by
``connect_network_with_dataset`` runs ``sink_size`` steps per call on batches it takes from the
data channel itself (which continues across calls), returning the last step's output.
"""
from sporax.graph.sink import BlockFeeder, SinkLoop
from sporax.nn.cell import Cell


class _HelperIterator:
    """What ``DatasetHelper.iter`` returns: the dataset it feeds from."""

    def __init__(self, dataset):
        self.dataset = dataset


class DatasetHelper:
    """Feeds a dataset to a custom training loop.

    Args:
        dataset (Dataset): the training data.
        dataset_sink_mode (bool): sink ``sink_size`` batches per network call. Default: True.
        sink_size (int): steps per sink; -1 means the whole dataset. Default: -1.
        epoch_num (int): how many epochs the loop will run. Default: 1.
    """

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        if isinstance(sink_size, bool) or not isinstance(sink_size, int) or sink_size == 0 or sink_size < -1:
            raise ValueError(f"For 'DatasetHelper', sink_size must be -1 or an int > 0, got {sink_size!r}.")
        self.dataset = dataset
        self.dataset_sink_mode = dataset_sink_mode
        self._sink_size = dataset.get_dataset_size() if sink_size == -1 else sink_size
        self.epoch_num = epoch_num
        self._feeder = None
        self._iterator = None

    def sink_size(self):
        """Steps per sink (per network call in sink mode)."""
        return self._sink_size

    def __iter__(self):
        if self.dataset_sink_mode:
            return iter([()])
        if self._iterator is None:
            self._iterator = self.dataset.create_tuple_iterator(num_epochs=self.epoch_num)
        return iter(self._iterator)

    def next_block(self):
        """The next ``sink_size`` batches, stacked per column."""
        if self._feeder is None:
            self._feeder = BlockFeeder(self.dataset, self._sink_size)
        return self._feeder.next_block()

    @property
    def iter(self):
        """MindSpore's internal iterator; here an object whose ``dataset`` is the helper's dataset.

        In sink mode its first use sends the dataset to a data queue, as MindSpore does when the
        helper is made: ``helper.iter.dataset.__transfer_dataset__.queue_name`` names the queue
        that ``nn.GetNextSingleOp`` / ``ops.GetNext`` read.
        """
        if self.dataset_sink_mode and getattr(self.dataset, "__transfer_dataset__", None) is None:
            transfer = self.dataset.device_que()
            transfer.send(self.epoch_num)
            setattr(self.dataset, "__transfer_dataset__", transfer)
        return _HelperIterator(self.dataset)

    def types_shapes(self):
        return self.dataset.output_types(), self.dataset.output_shapes()

    def release(self):
        """Stop the data channel."""
        transfer = getattr(self.dataset, "__transfer_dataset__", None)
        if transfer is not None:
            transfer.release()
            setattr(self.dataset, "__transfer_dataset__", None)
        if self._feeder is not None:
            self._feeder.close()
            self._feeder = None

    stop_send = release

    def continue_send(self):
        pass

    def __del__(self):
        try:
            self.release()
        except Exception:  # interpreter shutdown
            pass


class _DataSinkNetwork(Cell):
    """``network`` fed from a DatasetHelper: each call runs one sink of ``sink_size`` steps."""

    def __init__(self, network, dataset_helper):
        super().__init__(auto_prefix=False)
        self.network = network
        object.__setattr__(self, "_helper", dataset_helper)
        object.__setattr__(self, "_loop", SinkLoop(network))

    def __call__(self, *inputs):
        if inputs:
            raise TypeError("A network connected to a DatasetHelper in sink mode takes its inputs from the "
                            "dataset: call it as net(*inputs) with the empty tuple the helper yields.")
        return self._loop(self._helper.next_block())

    def construct(self, *inputs):
        return self(*inputs)


def connect_network_with_dataset(network, dataset_helper):
    """Connect ``network`` to ``dataset_helper``'s data channel (sink mode), or return it as it is."""
    if not isinstance(dataset_helper, DatasetHelper):
        raise TypeError(f"For 'connect_network_with_dataset', dataset_helper must be a DatasetHelper, "
                        f"got {type(dataset_helper).__name__}.")
    if not dataset_helper.dataset_sink_mode:
        return network
    return _DataSinkNetwork(network, dataset_helper)


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """A function that runs ``fn`` over the next ``sink_size`` batches of ``dataset`` per call.

    Returns:
        Callable: ``sink_fn()`` returning ``fn``'s output for the last batch of the sink.
    """
    if not callable(fn):
        raise TypeError(f"For 'data_sink', fn must be callable, got {type(fn).__name__}.")
    helper = DatasetHelper(dataset, True, sink_size)
    loop = SinkLoop(fn)

    def sink_fn(*unused):
        return loop(helper.next_block())

    sink_fn.release = helper.release
    return sink_fn
