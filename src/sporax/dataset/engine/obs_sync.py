"""``sync_wait_for_dataset``: wait until every rank has its OBS dataset files for an epoch.

MindSpore's ``OBSMindDataset`` downloads MindRecord shards from OBS (Huawei Cloud object
storage); after its download each rank uploads a ``.txt`` ready-file under
``<SYNC_OBS_PATH>/<BATCH_JOB_ID>/<epoch>/`` and this function polls that folder until
``rank_size`` ready-files are there. It talks to OBS only through ``obs_runtime`` (an object
with ``config`` and ``get_obs_client()``), so it works with any OBS-SDK-compatible client.
"""
import logging
import os
import time
import traceback

_LOG = logging.getLogger("sporax.dataset")


def bucket_and_key(obs_path):
    """``"s3://bucket/some/key"`` -> ``("bucket", "some/key")``."""
    start = obs_path.find("//")
    end = obs_path.find("/", start + 2)
    if end == -1:
        return obs_path[start + 2:], ""
    return obs_path[start + 2:end], obs_path[end + 1:]


def _ready_count(response):
    return sum(1 for content in response.body.contents if content.key.endswith(".txt"))


def sync_wait_for_dataset(rank_id, rank_size, current_epoch, obs_runtime):
    """Wait until the dataset files required by all ``rank_size`` devices are downloaded.

    Polls ``obs_runtime.get_obs_client().listObjects(bucket, prefix=...)`` every
    ``obs_runtime.config.RETRY_DELTA_TIME`` seconds, as MindSpore does, counting the ``.txt``
    ready-files under ``<config.SYNC_OBS_PATH>/<$BATCH_JOB_ID or 'unknown'>/<current_epoch>/``.
    Failed listings are logged and retried; like MindSpore it waits without a time limit.
    ``OBSMindDataset`` calls it at each epoch; users normally do not.

    Args:
        rank_id (int): rank of this device.
        rank_size (int): number of ranks that must be ready.
        current_epoch (int): the epoch being synchronised.
        obs_runtime: the OBS runtime of the ``OBSMindDataset`` (``config`` and ``get_obs_client``).

    Example:
        >>> import sporax.dataset as ds
        >>> ds.sync_wait_for_dataset(0, 8, 1, obs_runtime)  # doctest: +SKIP
    """
    config = obs_runtime.config
    bucket, key = bucket_and_key(config.SYNC_OBS_PATH)
    client = obs_runtime.get_obs_client()
    ready_dir = os.path.join(key, os.environ.get("BATCH_JOB_ID", "unknown"), f"{current_epoch}/")
    ready = 0
    success = False
    while not success:
        try:
            response = client.listObjects(bucket, prefix=ready_dir)
            if response.status < 300:
                ready = _ready_count(response)
                success = ready >= rank_size
            else:
                _LOG.warning("sync_wait_for_dataset: OBS SDK errorCode:%s, errMsg: %s.",
                             response.errorCode, response.errorMessage)
        except Exception:  # noqa: BLE001 - a failed listing is retried, as in MindSpore
            _LOG.error(traceback.format_exc())
        time.sleep(config.RETRY_DELTA_TIME)
        _LOG.info("sync_wait_for_dataset: waiting for sync dir %s, current_rank %s, total_rank %s, "
                  "ready_rank %s in epoch %s.", ready_dir, rank_id, rank_size, ready, current_epoch)
    _LOG.info("sync_wait_for_dataset: synced dir %s, beginning epoch %s.", ready_dir, current_epoch)
