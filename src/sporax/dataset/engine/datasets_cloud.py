"""``OBSMindDataset``: MindRecord files streamed from cloud object storage (OBS, MinIO, S3)."""
from sporax.dataset.engine.samplers import Shuffle
from sporax.dataset.engine.sources import MappableDataset


class OBSMindDataset(MappableDataset):
    """MindSpore's reader of MindRecord files kept in cloud object storage, which downloads
    each rank's files through Huawei's OBS SDK and synchronises the ranks through ready-files
    on the storage (see ``sync_wait_for_dataset``).

    sporax does not ship that client: constructing one raises NotImplementedError that says
    what to do instead (download the files, then ``MindDataset``).

    Args:
        dataset_files (list[str]): the MindRecord files on the storage (s3://bucket/key ...).
        server (str): the storage endpoint. ak (str), sk (str): the access keys.
        sync_obs_path (str): the storage folder the ranks synchronise through.
        columns_list, shuffle, num_shards, shard_id, shard_equal_rows: as MindDataset's.

    Examples:
        >>> import sporax.dataset as ds
        >>> ds.OBSMindDataset(["s3://bucket/a.mindrecord"], "https://obs.example.com", "ak",
        ...                   "sk", "s3://bucket/sync")  # doctest: +SKIP
    """

    def __init__(self, dataset_files, server, ak, sk, sync_obs_path, columns_list=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, shard_equal_rows=True):
        if not isinstance(dataset_files, list) or not dataset_files:
            raise TypeError("OBSMindDataset: dataset_files must be a non-empty list of object "
                            "storage paths.")
        for name, value in (("server", server), ("ak", ak), ("sk", sk),
                            ("sync_obs_path", sync_obs_path)):
            if not isinstance(value, str):
                raise TypeError(f"OBSMindDataset: {name} must be a str, but got "
                                f"{type(value).__name__}.")
        raise NotImplementedError(
            "OBSMindDataset streams MindRecord files from OBS/MinIO/S3 through Huawei's OBS SDK "
            "and synchronises ranks through the storage, a service sporax's pipeline does not "
            "talk to. Download the files first (e.g. with the storage's CLI or SDK), then read "
            "them with sporax.dataset.MindDataset(local_files, columns_list, shuffle=..., "
            "num_shards=..., shard_id=...).")
