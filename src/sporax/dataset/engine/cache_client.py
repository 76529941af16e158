"""``DatasetCache``: MindSpore's tensor cache, kept in this process instead of a cache server.

MindSpore's ``DatasetCache`` is a client of a ``cache_admin`` server on the same machine. sporax
has no server: the cache lives in the ``DatasetCache`` object itself, so every pipeline given
the same object (in this process) shares it, and it lasts as long as the object. What a user
can observe is the same: the first epoch fills the cache, later epochs (and later iterators over
the same pipeline) read cached rows instead of reading the source or calling the ``map``
functions again, ``size`` caps the memory used (MiB, 0: unlimited; MindSpore's server sizes
its pool in MiB too), rows that do not fit are spilled to disk when ``spilling`` is True;
otherwise, as MindSpore's server does, the cache stops taking rows once one does not fit and
the rows it lacks are recomputed each epoch. Unlike MindSpore's server, the cache does not
outlive the process. ``hostname``,
``port``, ``num_connections`` and ``prefetch_size`` are validated and kept; they address the
server MindSpore would talk to and have no effect here.
"""
import os
import shutil
import tempfile
import threading
import weakref

import numpy as np

_MIB = 1 << 20
_UINT32_MAX = 4294967295
_INT32_MAX = 2147483647
_UINT64_MAX = 18446744073709551615


def _type_check(value, types, name):
    if isinstance(value, bool) and bool not in types:
        raise TypeError(f"Argument {name} with value {value} is not of type {tuple(types)}, but "
                        f"got {type(value)}.")
    if not isinstance(value, types):
        raise TypeError(f"Argument {name} with value {value} is not of type {list(types)}, but "
                        f"got {type(value)}.")


def _interval(value, low, high, name):
    _type_check(value, (int,), name)
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")


class CacheStat:
    """Statistics of a cache (``DatasetCache.get_stat()``)."""

    def __init__(self, num_mem_cached, num_disk_cached, avg_cache_sz, min_row_id, max_row_id):
        self.num_mem_cached = num_mem_cached
        self.num_disk_cached = num_disk_cached
        self.avg_cache_sz = avg_cache_sz
        self.min_row_id = min_row_id
        self.max_row_id = max_row_id

    def __repr__(self):
        return (f"CacheStat(num_mem_cached={self.num_mem_cached}, num_disk_cached="
                f"{self.num_disk_cached}, avg_cache_sz={self.avg_cache_sz})")


class _RowStore:
    """The rows of one cached pipeline, keyed by the source row id."""

    def __init__(self, cache):
        self.cache = cache
        self.memory = {}
        self.disk = {}

    def __contains__(self, row_id):
        return row_id in self.memory or row_id in self.disk

    def get(self, row_id):
        """A copy of the cached row (a list of column values)."""
        row = self.memory.get(row_id)
        if row is not None:
            return [np.array(value) if isinstance(value, np.ndarray) else value for value in row]
        with np.load(self.disk[row_id]) as archive:
            return [archive[f"c{i}"] for i in range(len(archive.files))]

    def put(self, row_id, row):
        """Cache ``row`` unless it is there already or does not fit (then it is recomputed)."""
        with self.cache._lock:
            if row_id in self:
                return
            row = [np.array(value) if isinstance(value, np.ndarray) else value for value in row]
            size = sum(value.nbytes for value in row if isinstance(value, np.ndarray))
            cache = self.cache
            if cache._full:
                return
            if cache.size == 0 or cache._memory_bytes + size <= cache.size * _MIB:
                self.memory[row_id] = row
                cache._memory_bytes += size
            elif cache.spilling and all(isinstance(value, np.ndarray) for value in row):
                path = os.path.join(cache._spill_directory(), f"{id(self)}_{row_id}.npz")
                np.savez(path, **{f"c{i}": value for i, value in enumerate(row)})
                self.disk[row_id] = path
            else:
                # As MindSpore's cache server: once a row does not fit, nothing more is cached.
                cache._full = True
                return
            cache._row_bytes.append(size)


class DatasetCache:
    """A cache of dataset rows shared by the pipelines it is given to (``cache=`` of a source or ``map``).

    Args:
        session_id (int): the cache session, in [1, 4294967295].
        size (int, optional): memory for cached rows in MiB; 0 (default) is unlimited.
        spilling (bool, optional): write rows that do not fit in ``size`` to disk (a temporary
            directory removed with the cache) instead of recomputing them each epoch.
        hostname (str, optional): the cache server's host in MindSpore; kept, unused here.
        port (int, optional): the server's port in [1025, 65535]; kept, unused here.
        num_connections (int, optional): server connections in MindSpore; kept, unused here.
        prefetch_size (int, optional): the cache queue size in MindSpore; kept, unused here.

    Example:
        >>> import numpy as np
        >>> import sporax.dataset as ds
        >>> cache = ds.DatasetCache(session_id=1, size=0)
        >>> data = ds.MnistDataset("/path/to/mnist", cache=cache)  # doctest: +SKIP
    """

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None,
                 num_connections=None, prefetch_size=None):
        _interval(session_id, 1, _UINT32_MAX, "session_id")
        _type_check(size, (int,), "size")
        if size != 0:
            if size < 0:
                raise ValueError("Input size must be greater than 0.")
            _interval(size, 0, _UINT64_MAX, "size")
        _type_check(spilling, (bool,), "spilling")
        if hostname is not None:
            _type_check(hostname, (str,), "hostname")
        if port is not None:
            _interval(port, 1025, 65535, "port")
        if num_connections is not None:
            _interval(num_connections, 1, _INT32_MAX, "num_connections")
        if prefetch_size is not None:
            _interval(prefetch_size, 1, _INT32_MAX, "prefetch_size")
        self.session_id = session_id
        self.size = size
        self.spilling = spilling
        self.hostname = hostname
        self.port = port
        self.prefetch_size = prefetch_size
        self.num_connections = num_connections
        self._lock = threading.RLock()
        self._stores = {}
        self._memory_bytes = 0
        self._full = False
        self._row_bytes = []
        self._spill = []

    def _store(self, key):
        with self._lock:
            store = self._stores.get(key)
            if store is None:
                store = self._stores[key] = _RowStore(self)
            return store

    def _spill_directory(self):
        if not self._spill:
            path = tempfile.mkdtemp(prefix=f"sporax-cache-{self.session_id}-")
            weakref.finalize(self, shutil.rmtree, path, True)
            self._spill.append(path)
        return self._spill[0]

    def get_stat(self):
        """Rows cached in memory and on disk and their average size in bytes.

        Raises RuntimeError before any pipeline used the cache (as MindSpore does).
        """
        with self._lock:
            if not self._stores:
                raise RuntimeError("GetStat called but the cache is not in use yet: iterate a "
                                   "pipeline that was given this DatasetCache first.")
            memory = sum(len(store.memory) for store in self._stores.values())
            disk = sum(len(store.disk) for store in self._stores.values())
            ids = [row_id for store in self._stores.values()
                   for row_id in list(store.memory) + list(store.disk)]
            average = sum(self._row_bytes) // len(self._row_bytes) if self._row_bytes else 0
            return CacheStat(memory, disk, average, min(ids, default=-1), max(ids, default=-1))

    def __deepcopy__(self, memo):
        # Copies of a pipeline share the cache, as MindSpore's copies share one cache client.
        memo[id(self)] = self
        return self
