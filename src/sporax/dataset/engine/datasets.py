"""``Dataset``: the lazy pipeline node every source and operation derives from.

Calling an operation (``map``, ``batch``, ...) builds a new node whose ``children`` are its
inputs; nothing runs until an iterator is created. Each epoch of an iterator calls
``_blocks(ctx)`` on the root, which pulls :class:`~sporax.dataset.engine.block.Block` objects
through the graph (see ``runtime`` for threads, processes and shutdown).
"""
import numpy as np

from sporax.dataset.engine import validation as check
from sporax.dataset.engine.iterators import count_rows, DictIterator, ResumedIterator, TupleIterator
from sporax.dataset.engine.pipeline_internals import copy_graph, link_children, PipelineInternals

INT32_MAX = 2147483647


class Dataset(PipelineInternals):
    """Base class of every dataset node (MindSpore's ``mindspore.dataset.Dataset``)."""

    def __init__(self, children=None, num_parallel_workers=None):
        if children is None:
            children = []
        elif isinstance(children, Dataset):
            children = [children]
        self._consumers = []
        link_children(self, children)
        self.num_parallel_workers = num_parallel_workers
        # MindSpore's public attribute: None until get_dataset_size fills it; a value set by hand is returned
        # as is (mindyolo's trainer reads it as its total step count)
        self.dataset_size = None
        self._shape_type_cache = None
        self._epochs_started = 0
        self._global_step = None
        # A column an operation names that its input lacks (see check.missing_columns)
        self._column_error = None

    # -- what subclasses implement -------------------------------------------------------------
    def _column_names(self):
        """Output column names (static)."""
        return self.children[0]._column_names()

    def _static_size(self):
        """Rows per epoch when known without running the pipeline, else None."""
        return self.children[0]._static_size()

    def _blocks(self, ctx):
        """Generator of Blocks for one epoch."""
        raise NotImplementedError(f"{type(self).__name__} must implement _blocks() (an internal method of its base class).")

    def _describe(self):
        return type(self).__name__

    # -- operations ------------------------------------------------------------------------------
    def map(self, operations, input_columns=None, output_columns=None, num_parallel_workers=None,
            **kwargs):
        """Apply ``operations`` (a callable or list of callables) to ``input_columns`` of every row."""
        return operation_nodes.MapDataset(self, operations, input_columns, output_columns,
                                          num_parallel_workers, **kwargs)

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Stack ``batch_size`` consecutive rows into one row of arrays with a leading batch axis."""
        return batching.BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
                     pad_info=None):
        """Batch rows of different shapes by padding them (``pad_info``: {column: (shape, value)})."""
        return batching.PaddedBatchDataset(self, batch_size, drop_remainder, num_parallel_workers, pad_info)

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary=False, drop_remainder=False):
        """Batch rows of similar length together, one bucket per length range."""
        return batching.BucketBatchByLengthDataset(self, column_names, bucket_boundaries,
                                                   bucket_batch_sizes, element_length_function,
                                                   pad_info, pad_to_bucket_boundary, drop_remainder)

    def shuffle(self, buffer_size):
        """Shuffle rows through a buffer of ``buffer_size`` rows (>= 2)."""
        return operation_nodes.ShuffleDataset(self, buffer_size)

    def repeat(self, count=None):
        """Repeat the dataset ``count`` times (None or -1: forever)."""
        return operation_nodes.RepeatDataset(self, count)

    def take(self, count=-1):
        """The first ``count`` rows (-1: all)."""
        return operation_nodes.TakeDataset(self, count)

    def skip(self, count):
        """Drop the first ``count`` rows."""
        return operation_nodes.SkipDataset(self, count)

    def zip(self, datasets):
        """Join the columns of this dataset and ``datasets`` row by row (shortest wins)."""
        if isinstance(datasets, Dataset):
            datasets = (datasets,)
        return operation_nodes.ZipDataset((self,) + tuple(datasets))

    def concat(self, datasets):
        """Rows of this dataset followed by the rows of ``datasets``."""
        if isinstance(datasets, Dataset):
            datasets = [datasets]
        return operation_nodes.ConcatDataset([self] + list(datasets))

    def __add__(self, datasets):
        return self.concat(datasets)

    def project(self, columns):
        """Keep only ``columns``, in that order."""
        return operation_nodes.ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        """Rename ``input_columns`` to ``output_columns``."""
        return operation_nodes.RenameDataset(self, input_columns, output_columns)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """Keep the rows for which ``predicate(*input_columns)`` is true."""
        return operation_nodes.FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def flat_map(self, func):
        """Concatenate the datasets ``func(row)`` returns for every row (as NumPy arrays)."""
        return operation_nodes.FlatMapDataset(self, func)

    def apply(self, apply_func):
        """``apply_func(self)``, which must return a Dataset."""
        result = apply_func(self)
        if not isinstance(result, Dataset):
            raise TypeError("apply: apply_func must return a Dataset, but it returned "
                            f"{type(result).__name__}.")
        return result

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """Block the pipeline every ``num_batch`` rows until ``sync_update(condition_name)``."""
        return sync.SyncWaitDataset(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Release the sync_wait named ``condition_name`` for ``num_batch`` more rows."""
        sync.find_sync_node(self, condition_name).update(num_batch, data)

    def split(self, sizes, randomize=True):
        """Split into datasets of the given ``sizes`` (row counts or fractions summing to 1)."""
        return splitting.split(self, sizes, randomize)

    def save(self, file_name, num_files=1, file_type="mindrecord"):
        """Write one epoch of rows to MindRecord files (``num_files`` shards)."""
        saving.save(self, file_name, num_files, file_type)

    # -- information -------------------------------------------------------------------------------
    def device_que(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        """A ``TransferDataset`` whose ``send()`` feeds this data to the data queue ``queue_name``
        (read by ``ops.GetNext``); ``''`` generates a unique name (its ``queue_name``)."""
        # transfer feeds sporax.core's device queue; importing sporax.core starts JAX, which a
        # pipeline that never sends to a device must not pay for (or need installed).
        from sporax.dataset.engine.transfer import TransferDataset

        return TransferDataset(self, send_epoch_end, create_data_info_queue, queue_name)

    def parse(self, children=None):
        """MindSpore's hook that turns a node into its C++ IR node; sporax has no such IR.

        On the base ``Dataset`` MindSpore raises ``NotImplementedError("Dataset has to implement
        parse method.")``, and sporax raises the same. MindSpore's own sources and operations
        return an internal ``mindspore._c_dataengine`` node object that only its C++ runtime can
        use; sporax runs pipelines in Python (``_blocks``), has no IR node to return, and so
        raises NotImplementedError for every node, naming it.

        Example:
            >>> import sporax.dataset as ds
            >>> ds.Dataset().parse()  # doctest: +SKIP
            NotImplementedError: Dataset has to implement parse method.
        """
        if type(self) is Dataset:
            raise NotImplementedError("Dataset has to implement parse method.")
        raise NotImplementedError(
            f"{type(self).__name__}.parse: MindSpore returns its C++ IR node here; sporax runs "
            "pipelines without that IR, so there is no node to return. Iterate the dataset "
            "(create_tuple_iterator / create_dict_iterator) or serialize it (to_json) instead.")

    def to_json(self, filename=""):
        """This pipeline as MindSpore's JSON dict, also written to ``filename`` if given."""
        return serdes.to_json(self, filename)

    def get_col_names(self):
        """The output column names; raises the RuntimeError of an operation in the pipeline that
        names a column its input lacks (iterators ask this first)."""
        _raise_column_errors(self)
        return list(self._column_names())

    def get_dataset_size(self):
        """Rows (batches after ``batch``) in one epoch; runs the pipeline once if it must."""
        if self.dataset_size is None:
            size = self._static_size()
            self.dataset_size = count_rows(self) if size is None else size
        return self.dataset_size

    def __len__(self):
        # As MindSpore: ``len(dataset)`` is ``get_dataset_size()`` (batches after ``batch``).
        return self.get_dataset_size()

    def _first_row(self):
        if self._shape_type_cache is None:
            iterator = self.create_tuple_iterator(num_epochs=1, output_numpy=True)
            try:
                row = next(iterator)
            except StopIteration:
                row = None
            finally:
                iterator.stop()
            self._shape_type_cache = row
        return self._shape_type_cache

    def output_shapes(self, estimate=False):
        """Shape of each column of the first row (lists of ints; MindSpore gives a dict ``[0]``)."""
        row = self._first_row()
        shapes = [] if row is None else [[0] if isinstance(column, dict) else list(np.shape(column))
                                         for column in row]
        if estimate and shapes:
            # As MindSpore 2.10: one pass over the rows, a dimension that varies between rows is None.
            iterator = self.create_tuple_iterator(num_epochs=1, output_numpy=True)
            try:
                for other in iterator:
                    for shape, column in zip(shapes, other):
                        if isinstance(column, dict):
                            continue
                        column_shape = np.shape(column)
                        if len(column_shape) != len(shape):
                            raise RuntimeError(
                                f"output_shapes(estimate=True): Inconsistent shapes, expect same rank for each "
                                f"data row, but one row has shape {list(column_shape)} and another {shape}.")
                        shape[:] = [d if d == c else None for d, c in zip(shape, column_shape)]
            finally:
                iterator.stop()
        return shapes

    def output_types(self):
        """NumPy dtype of each column of the first row; a string or bytes column's is the plain
        ``<U`` / ``S`` without a width, as MindSpore 2.10 reports them."""
        row = self._first_row()
        return [] if row is None else [_column_type(np.asarray(column).dtype) for column in row]

    def get_batch_size(self):
        """Batch size of the last ``batch`` in the pipeline (1 if there is none)."""
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self):
        """Count of the last ``repeat`` in the pipeline (1 if there is none)."""
        return self.children[0].get_repeat_count() if self.children else 1

    def num_classes(self):
        """Number of classes of the source (None when the source does not know)."""
        return self.children[0].num_classes() if self.children else None

    def get_class_indexing(self):
        """Class name to label mapping of the source (ImageFolderDataset...)."""
        if self.children:
            return self.children[0].get_class_indexing()
        raise RuntimeError(f"get_class_indexing is not supported by {type(self).__name__}.")

    def reset(self):
        """Forget cached sizes/shapes and restart epoch numbering (shuffles repeat from epoch 0)."""
        self.dataset_size = None
        self._shape_type_cache = None
        self._epochs_started = 0

    def set_init_step(self, init_step):
        """Resume iterators of this dataset at global step ``init_step`` (rows, or batches).

        As in MindSpore, the step counts across epochs: an iterator skips ``init_step //
        get_dataset_size()`` epochs (they count towards its ``num_epochs``) and ``init_step %
        get_dataset_size()`` rows of the next one. Epochs are numbered from 0 then, so the rows,
        their shuffled order and random transforms are exactly those an uninterrupted run has
        from that step on.

        Example:
            >>> import numpy as np
            >>> import sporax.dataset as ds
            >>> data = ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=False).batch(3)
            >>> data.set_init_step(5)  # epoch 1, its second batch
            >>> [r[0].tolist() for r in data.create_tuple_iterator(num_epochs=2, output_numpy=True)]
            [[3, 4, 5], [6, 7, 8], [9]]
        """
        check.integer("set_init_step", "init_step", init_step, 0, INT32_MAX)
        self._global_step = init_step

    def get_init_step(self):
        """The step set by set_init_step; from the child when not set here (0 if none)."""
        step = getattr(self, "_global_step", None)
        if step is not None:
            return step
        if len(self.children) == 1:
            return self.children[0].get_init_step()
        return 0  # several children: which one's step would be ambiguous, as in MindSpore

    def _resumed_iterator(self, start_step, num_epochs=-1, output_numpy=False):
        """A tuple iterator whose first row is global step ``start_step`` of an uninterrupted run.

        Epochs are numbered from 0 whatever this object ran before, so ``Model.train`` from
        ``initial_epoch`` sees exactly the rows, order and random transforms that epoch has in
        a run that never stopped; ``num_epochs`` counts the epochs delivered.
        """
        return ResumedIterator(self, start_step, num_epochs, output_numpy)

    def _nodes(self):
        stack, seen = [self], set()
        while stack:
            node = stack.pop()
            if id(node) not in seen:
                seen.add(id(node))
                yield node
                stack.extend(node.children)

    def is_shuffled(self):
        """Whether any node of the pipeline shuffles rows."""
        return any(isinstance(node, operation_nodes.ShuffleDataset) or
                   (getattr(node, "sampler", None) is not None and node.sampler.is_shuffled())
                   for node in self._nodes())

    def is_sharded(self):
        """Whether a source of the pipeline reads only one shard."""
        return any(getattr(node, "sampler", None) is not None and node.sampler.is_sharded()
                   for node in self._nodes())

    def is_sync(self):
        """Whether the pipeline has a sync_wait."""
        return any(isinstance(node, sync.SyncWaitDataset) for node in self._nodes())

    def disable_sync(self):
        """Release every sync_wait of the pipeline for good."""
        for node in self._nodes():
            if isinstance(node, sync.SyncWaitDataset):
                node.release()

    # -- iteration ------------------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        """Iterator over rows as lists (Tensors, or NumPy arrays with ``output_numpy``)."""
        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        """Iterator over rows as {column name: value} dicts."""
        return DictIterator(self, None, num_epochs, output_numpy, do_copy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def __deepcopy__(self, memo):
        # As MindSpore: a deep copy is a new pipeline (every node copied), so the copy and the
        # original can each take a further operation without one node having two consumers.
        # The sources' data is shared, not copied (pipelines never write to it).
        if id(self) not in memo:
            memo[id(self)] = copy_graph(self)
        return memo[id(self)]


class SourceDataset(Dataset):
    """A dataset reading rows from somewhere (no children)."""

    def get_batch_size(self):
        return 1

    def get_repeat_count(self):
        return 1

    def num_classes(self):
        return None


class VisionBaseDataset(Dataset):
    """The abstract base of a vision source dataset: a subclass implements ``parse``."""

    def parse(self, children=None):
        raise NotImplementedError("Dataset has to implement parse method.")


# The nodes the operations above build subclass Dataset, so their modules import this one: they are
# bound here, after Dataset exists, as modules (not names), which either import order can complete.
from sporax.dataset.engine import batching, saving, splitting, sync  # noqa: E402
from sporax.dataset.engine import operations as operation_nodes  # noqa: E402
from sporax.dataset.engine import serializer_deserializer as serdes  # noqa: E402


def _column_type(dtype):
    return np.dtype(np.str_) if dtype.kind == "U" else np.dtype(np.bytes_) if dtype.kind == "S" else dtype


def _raise_column_errors(node):
    """The first (deepest) column error recorded in ``node``'s tree, raised."""
    for child in node.children:
        _raise_column_errors(child)
    if node._column_error is not None:
        raise node._column_error
