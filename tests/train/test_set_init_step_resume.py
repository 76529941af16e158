"""``dataset.set_init_step`` with ``Model.train(..., initial_epoch=k)``, step by step, as MindSpore 2.10 does.

Recorded on MindSpore 2.10 CPU (dataset_sink_mode=False): NumpySlicesDataset(arange(20), shuffle=True) with
ds.config.set_seed(0), a network squaring its input, 3 epochs. The init step wins over initial_epoch's start,
mid-epoch too, and the whole epochs it lies past initial_epoch count towards the epochs the training's data
delivers (then the pipeline runs out: RuntimeError). Before, sporax restarted at initial_epoch's first step."""
import numpy as np
import pytest

import sporax as ms
from sporax import dataset as ds
from sporax import nn, ops
from sporax.train import Callback, Model

RECORDED = {  # (init_step, initial_epoch): the step losses MindSpore 2.10 reports
    (30, 1): [0, 256, 121, 4, 49, 64, 1, 169, 324, 36, 81, 36, 169, 9, 64, 121, 324, 1, 289, 4, 0, 225, 256, 144,
              361, 25, 49, 196, 16, 100],
    (10, 1): [9, 324, 196, 4, 49, 64, 361, 25, 225, 144, 100, 9, 361, 196, 225, 81, 16, 289, 25, 144, 0, 256, 121,
              4, 49, 64, 1, 169, 324, 36],
    (45, 2): [121, 324, 1, 289, 4, 0, 225, 256, 144, 361, 25, 49, 196, 16, 100],
}


class Square(nn.Cell):
    def construct(self, x):
        return ops.square(x)


class Losses(Callback):
    def __init__(self):
        super().__init__()
        self.losses, self.steps = [], []

    def step_end(self, run_context):
        params = run_context.original_args()
        self.losses.append(int(params.net_outputs.asnumpy()))
        self.steps.append((params.cur_epoch_num, params.cur_step_num))


def _train(init_step, initial_epoch):
    data = ds.NumpySlicesDataset(np.arange(20).astype(np.int32), shuffle=True)
    data.set_init_step(init_step)
    losses = Losses()
    Model(Square()).train(3, data, callbacks=losses, dataset_sink_mode=False, initial_epoch=initial_epoch)
    return losses


@pytest.fixture
def seeded():
    original = ds.config.get_seed()
    ds.config.set_seed(0)
    yield
    ds.config.set_seed(original)
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("init_step, initial_epoch", sorted(RECORDED))
def test_init_step_wins_over_initial_epoch(seeded, mode, init_step, initial_epoch):
    ms.set_context(mode=mode)
    losses = _train(init_step, initial_epoch)
    assert losses.losses == RECORDED[(init_step, initial_epoch)]
    # the callbacks count this call's steps from 1; the epochs are numbered from initial_epoch + 1
    assert losses.steps[0] == (initial_epoch + 1, 1) and losses.steps[-1] == (3, len(losses.losses))


@pytest.mark.parametrize("init_step, initial_epoch", [(30, 0), (50, 1)])
def test_init_step_past_the_epochs_left_runs_out_of_data(seeded, init_step, initial_epoch):
    with pytest.raises(RuntimeError):
        _train(init_step, initial_epoch)
