"""sync_wait_for_dataset (OBS ready-file barrier) and Dataset.parse (MindSpore's IR hook)."""
import types

import pytest

import sporax.dataset as ds


class FakeObs:
    """An OBS client whose ready folder gains one rank's .txt file per listing."""

    def __init__(self, fail_first=False):
        self.calls = []
        self.fail_first = fail_first

    def listObjects(self, bucket, prefix):  # noqa: N802 - the OBS SDK's name
        self.calls.append((bucket, prefix))
        if self.fail_first and len(self.calls) == 1:
            raise ConnectionError("network down")
        if self.fail_first and len(self.calls) == 2:
            return types.SimpleNamespace(status=503, errorCode="E", errorMessage="busy")
        keys = [f"{prefix}rank_{i}.txt" for i in range(len(self.calls))] + [f"{prefix}other.lock"]
        contents = [types.SimpleNamespace(key=key) for key in keys]
        return types.SimpleNamespace(status=200, body=types.SimpleNamespace(contents=contents))


def runtime(client):
    config = types.SimpleNamespace(SYNC_OBS_PATH="s3://bucket/jobs/sync", RETRY_DELTA_TIME=0)
    return types.SimpleNamespace(config=config, get_obs_client=lambda: client)


def test_waits_until_every_rank_uploaded_its_ready_file(monkeypatch):
    monkeypatch.setenv("BATCH_JOB_ID", "job7")
    client = FakeObs()
    ds.sync_wait_for_dataset(0, 3, 2, runtime(client))
    assert client.calls == [("bucket", "jobs/sync/job7/2/")] * 3


def test_failed_listings_are_retried(monkeypatch):
    monkeypatch.delenv("BATCH_JOB_ID", raising=False)
    client = FakeObs(fail_first=True)
    ds.sync_wait_for_dataset(1, 3, 0, runtime(client))
    assert len(client.calls) == 3 and client.calls[0] == ("bucket", "jobs/sync/unknown/0/")


def test_parse_raises_as_mindspore():
    with pytest.raises(NotImplementedError, match="^Dataset has to implement parse method.$"):
        ds.Dataset().parse()
    with pytest.raises(NotImplementedError, match="BatchDataset.parse: MindSpore returns its C"):
        ds.NumpySlicesDataset([1, 2]).batch(1).parse()
