"""sync_pipeline_shared_parameters: MindSpore 2.10's checks and its one-stage behaviour; with 2 stages the
shared Parameter of the stage-tagged sub-Cells is one object in sporax, so both stages read its new values."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax.core import context


@pytest.fixture(autouse=True)
def _reset():
    yield
    context.reset_auto_parallel_context()
    ms.set_context(mode=ms.PYNATIVE_MODE)


class Embedding(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((4, 4), np.float32)), name="w")

    def construct(self, x):
        return ops.matmul(x, self.w), self.w


class Head(nn.Cell):
    def construct(self, x, w):
        return ops.matmul(x, w.T)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.word_embedding, self.lm_head = Embedding(), Head()
        self.word_embedding.pipeline_stage = 0
        self.lm_head.pipeline_stage = 1

    def construct(self, x):
        hidden, table = self.word_embedding(x)
        return self.lm_head(hidden, table)


def test_a_network_that_is_not_a_cell_raises_mindsporess_type_error():
    with pytest.raises(TypeError, match="For 'sync_pipeline_shared_parameters', the argument 'net' should be a "
                                        "Cell, but got <class 'int'>."):
        ms.parallel.sync_pipeline_shared_parameters(3)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("stages, parallel_mode", [(1, "stand_alone"), (2, "stand_alone"),
                                                   (2, "semi_auto_parallel")])
def test_after_sync_every_stage_reads_the_changed_shared_table(mode, stages, parallel_mode):
    ms.set_context(mode=mode)
    context.set_auto_parallel_context(pipeline_stages=stages, parallel_mode=parallel_mode)
    net = Network()
    x = Tensor(np.eye(2, 4, dtype=np.float32))
    net(x)  # compiled before the sync, as MindSpore requires
    table = np.arange(16, dtype=np.float32).reshape(4, 4)
    net.word_embedding.w.set_data(Tensor(table))
    assert ms.sync_pipeline_shared_parameters(net) is None
    assert context.get_auto_parallel_context("parallel_mode") == parallel_mode  # restored, as MindSpore
    np.testing.assert_allclose(net(x).asnumpy(), (np.eye(2, 4) @ table) @ table.T)
