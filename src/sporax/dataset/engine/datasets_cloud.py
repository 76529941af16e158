"""``OBSMindDataset``: MindRecord files kept in cloud object storage (OBS, MinIO, S3).

Each file and its ``.db`` index are downloaded through Huawei's OBS SDK (``esdk-obs-python``,
its ``obs.ObsClient``) into MindSpore's working folder ``/cache/dataset``; with several shards,
each rank then writes a ready-file under ``<sync_obs_path>/<$BATCH_JOB_ID>/1/`` and waits for
all ranks (``sync_wait_for_dataset``) before reading, as MindSpore does for its first epoch.
The rows are read like ``MindDataset``'s, this node's sampler choosing the shard's rows.
"""
import os
import types

from sporax.dataset.engine.datasets_mindrecord import MindDataset
from sporax.dataset.engine.datasets_text import shuffle_flag
from sporax.dataset.engine.obs_sync import bucket_and_key, sync_wait_for_dataset
from sporax.dataset.engine.samplers import Shuffle
from sporax.dataset.engine.sources import MappableDataset


class ObsRuntime:
    """The OBS connection of one OBSMindDataset: ``config`` and ``get_obs_client()``."""

    def __init__(self, server, ak, sk, sync_obs_path, local_path):
        self.config = types.SimpleNamespace(SYNC_OBS_PATH=sync_obs_path, RETRY_DELTA_TIME=10,
                                            MAX_RETRY=3, DATASET_LOCAL_PATH=local_path)
        self._credentials = (server, ak, sk)
        self._client = None

    def get_obs_client(self):
        if self._client is None:
            try:
                from obs import ObsClient
            except ImportError:
                raise ImportError("OBSMindDataset needs Huawei's OBS SDK: pip install "
                                  "esdk-obs-python") from None
            server, ak, sk = self._credentials
            self._client = ObsClient(access_key_id=ak, secret_access_key=sk, server=server)
        return self._client

    def download(self, remote_path):
        """Download ``remote_path`` (bucket path) into the local folder; the local path."""
        bucket, key = bucket_and_key(remote_path)
        local = os.path.join(self.config.DATASET_LOCAL_PATH, os.path.basename(key))
        response = None
        for _ in range(self.config.MAX_RETRY):
            response = self.get_obs_client().getObject(bucket, key, downloadPath=local)
            if response.status < 300:
                return local
        raise RuntimeError(f"OBSMindDataset: downloading {remote_path} failed (OBS status "
                           f"{response.status}: {getattr(response, 'errorMessage', '')}); check "
                           "the path, the server and the access keys.")

    def mark_ready(self, rank_id, epoch):
        bucket, key = bucket_and_key(self.config.SYNC_OBS_PATH)
        job = os.environ.get("BATCH_JOB_ID", "unknown")
        name = os.path.join(key, job, str(epoch), f"{rank_id}.txt")
        response = self.get_obs_client().putContent(bucket, name, content="ready")
        if response.status >= 300:
            raise RuntimeError(f"OBSMindDataset: cannot write the ready-file {name} to bucket "
                               f"{bucket} (OBS status {response.status}).")


class OBSMindDataset(MappableDataset):
    """Read MindRecord files kept in OBS/MinIO/S3 (see the module notes).

    Args:
        dataset_files (list[str]): the MindRecord files on the storage (obs://bucket/key ...).
        server (str): the storage endpoint. ak (str), sk (str): the access keys.
        sync_obs_path (str): the storage folder the ranks synchronise through.
        columns_list (list[str], optional): columns to read. Default None: all.
        shuffle (Union[bool, Shuffle], optional): Default Shuffle.GLOBAL.
        num_shards (int, optional), shard_id (int, optional): read one shard of the rows.
        shard_equal_rows (bool, optional): every shard gets the same number of rows (MindSpore's
            default); the samplers here always give equal shards. Default True.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.OBSMindDataset(["obs://bucket/a.mindrecord"], "https://obs.example.com",
        ...                             "ak", "sk", "obs://bucket/sync")  # doctest: +SKIP
    """

    LOCAL_PATH = "/cache/dataset"  # MindSpore's working folder for the downloaded files

    def __init__(self, dataset_files, server, ak, sk, sync_obs_path, columns_list=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, shard_equal_rows=True):
        where = type(self).__name__
        if not isinstance(dataset_files, list) or not dataset_files or \
                not all(isinstance(f, str) for f in dataset_files):
            raise TypeError(f"{where}: dataset_files must be a non-empty list of object storage "
                            "paths.")
        for name, value in (("server", server), ("ak", ak), ("sk", sk),
                            ("sync_obs_path", sync_obs_path)):
            if not isinstance(value, str):
                raise TypeError(f"{where}: {name} must be a str, but got "
                                f"{type(value).__name__}.")
        if columns_list is not None and not isinstance(columns_list, list):
            raise TypeError(f"{where}: columns_list must be a list of column names.")
        if not isinstance(shard_equal_rows, bool):
            raise TypeError(f"{where}: shard_equal_rows must be a bool.")
        self.dataset_files, self.server, self.sync_obs_path = dataset_files, server, sync_obs_path
        self.columns_list, self.shard_equal_rows = columns_list, shard_equal_rows
        super().__init__(None, None, shuffle_flag(where, shuffle), None, num_shards, shard_id,
                         None)
        self._runtime = ObsRuntime(server, ak, sk, sync_obs_path, self.LOCAL_PATH)
        self._inner = None

    def _local(self):
        if self._inner is None:
            os.makedirs(self._runtime.config.DATASET_LOCAL_PATH, exist_ok=True)
            local = []
            for remote in self.dataset_files:
                local.append(self._runtime.download(remote))
                self._runtime.download(remote + ".db")
            if self.num_shards and self.num_shards > 1:
                self._runtime.mark_ready(self.shard_id, 1)
                sync_wait_for_dataset(self.shard_id, self.num_shards, 1, self._runtime)
            self._inner = MindDataset(local, self.columns_list, shuffle=False)
        return self._inner

    def _column_names(self):
        return self._local()._column_names()

    def _num_rows(self):
        return self._local()._num_rows()

    def _read(self, indices):
        return self._local()._read(indices)
