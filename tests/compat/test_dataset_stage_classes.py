"""Each pipeline stage is an instance of its class at MindSpore's path ``mindspore.dataset.engine.datasets``
(mindformers' trainer tests ``isinstance(dataset, BatchDataset)``), and ``mindspore.dataset.samplers`` is the
samplers' module; every answer below is MindSpore 2.10's (recorded there, all True)."""
import numpy as np
import pytest

from tests.compat.test_hook import hook  # noqa: F401 - the shared install/uninstall fixture

STAGES = {
    "BatchDataset": lambda d, ds: d.batch(2),
    "RepeatDataset": lambda d, ds: d.repeat(2),
    "MapDataset": lambda d, ds: d.map(lambda x: x, input_columns=["x"]),
    "ShuffleDataset": lambda d, ds: d.shuffle(2),
    "SkipDataset": lambda d, ds: d.skip(1),
    "TakeDataset": lambda d, ds: d.take(2),
    "ProjectDataset": lambda d, ds: d.project(["x"]),
    "RenameDataset": lambda d, ds: d.rename(["x"], ["y"]),
    "ConcatDataset": lambda d, ds: d + d,
    "ZipDataset": lambda d, ds: ds.zip((d, d.rename(["x"], ["z"]))),
    "FilterDataset": lambda d, ds: d.filter(lambda x: True, input_columns=["x"]),
}


@pytest.mark.parametrize("name", sorted(STAGES))
def test_a_stage_is_an_instance_of_its_class_at_mindspores_path(hook, name):
    import mindspore.dataset as ds  # noqa: PLC0415 - served only while the hook is installed
    from mindspore.dataset.engine import datasets  # noqa: PLC0415

    source = ds.NumpySlicesDataset(np.arange(6), column_names=["x"], shuffle=False)
    stage = STAGES[name](source, ds)
    assert isinstance(stage, getattr(datasets, name))
    assert not isinstance(source, getattr(datasets, name))


def test_dataset_samplers_is_the_samplers_module(hook):
    import mindspore.dataset as ds  # noqa: PLC0415
    from mindspore.dataset import samplers  # noqa: PLC0415

    assert samplers.SequentialSampler is ds.SequentialSampler
    assert samplers.DistributedSampler is ds.DistributedSampler
