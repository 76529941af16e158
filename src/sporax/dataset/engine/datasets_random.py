"""RandomDataset: rows of random tensors shaped by a Schema (or by a random schema)."""
import json

import numpy as np

from sporax.dataset.core import config
from sporax.dataset.engine.schema import Schema
from sporax.dataset.engine.sources import MappableDataset

# the element types a schema-less RandomDataset draws its columns from
_RANDOM_TYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                 "uint64", "float16", "float32", "float64")


class RandomDataset(MappableDataset):
    """Rows of random tensors, for testing pipelines without data files.

    Each tensor is one random byte repeated over its storage, as MindSpore fills them; the
    values are fixed by ``dataset.config.set_seed``.

    Args:
        total_rows (int, optional): Rows to generate (default None: a random number in
            [1, 1024)).
        schema (Union[str, Schema], optional): The columns' names, types and shapes (a Schema or
            a schema JSON file); a column without a shape gets a random 1-d length. Default None:
            1 to 4 columns of random types and 1-d shapes, named c0, c1, ...
        columns_list (list[str], optional): The schema columns to keep (default None: all).
        num_samples, num_parallel_workers, cache, shuffle, num_shards, shard_id: as every
            mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> schema = ds.Schema()
        >>> schema.add_column("image", de_type="uint8", shape=[2])
        >>> dataset = ds.RandomDataset(schema=schema, total_rows=4)
        >>> [row[0].shape for row in dataset.create_tuple_iterator(output_numpy=True)]
        [(2,), (2,), (2,), (2,)]
    """

    def __init__(self, total_rows=None, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, cache=None, shuffle=None, num_shards=None,
                 shard_id=None):
        where = type(self).__name__
        if total_rows is not None and (not isinstance(total_rows, int) or
                                       isinstance(total_rows, bool) or total_rows < 0):
            raise TypeError(f"{where}: total_rows must be a non-negative int, but got "
                            f"{total_rows!r}.")
        if columns_list is not None and not isinstance(columns_list, list):
            raise TypeError(f"{where}: columns_list must be a list of column names, but got "
                            f"{type(columns_list).__name__}.")
        rng = np.random.default_rng(config.get_seed())
        self.total_rows = int(rng.integers(1, 1024)) if total_rows is None else total_rows
        self.schema = schema
        self._columns = self._resolve_columns(where, schema, columns_list, rng)
        super().__init__(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id,
                         cache)

    @staticmethod
    def _resolve_columns(where, schema, columns_list, rng):
        if schema is None:
            count = int(rng.integers(1, 5))
            columns = [(f"c{i}", np.dtype(_RANDOM_TYPES[int(rng.integers(len(_RANDOM_TYPES)))]),
                        (int(rng.integers(1, 33)),)) for i in range(count)]
        else:
            if isinstance(schema, str):
                loaded = Schema()
                with open(schema) as handle:
                    loaded.from_json(json.load(handle))
                schema = loaded
            if not isinstance(schema, Schema):
                raise TypeError(f"{where}: schema must be a Schema or a JSON file path, but got "
                                f"{type(schema).__name__}.")
            columns = [(c["name"], np.dtype(c["type"]),
                        tuple(c["shape"]) if c["shape"] is not None
                        else (int(rng.integers(1, 33)),)) for c in schema.columns]
        if columns_list is not None:
            known = {name for name, _, _ in columns}
            missing = [name for name in columns_list if name not in known]
            if missing:
                raise ValueError(f"{where}: columns_list names {missing}, which the schema "
                                 f"does not have ({sorted(known)}).")
            columns = [c for c in columns if c[0] in columns_list]
        return columns

    def _column_names(self):
        return [name for name, _, _ in self._columns]

    def _num_rows(self):
        return self.total_rows

    def _read(self, indices):
        out = [[] for _ in self._columns]
        for index in indices:
            rng = np.random.default_rng((config.get_seed(), int(index)))
            for j, (_, dtype, shape) in enumerate(self._columns):
                byte = np.uint8(rng.integers(0, 256))
                storage = np.full(int(np.prod(shape)) * dtype.itemsize, byte, np.uint8)
                out[j].append(storage.view(dtype).reshape(shape).copy())
        return out
