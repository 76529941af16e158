"""``export`` and Parameters no Cell owns: errors as MindSpore 2.10 raises them, and no file left behind."""
import os

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor

FREE = Parameter(Tensor(np.ones(2, np.float32)), name="free")


class ReadsAFreeParameter(nn.Cell):
    def construct(self, x):
        return x + FREE


class Inner(nn.Cell):
    def construct(self, x):
        return x * FREE


class Owns(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.full(2, 3.0, np.float32)), name="weight")
        self.inner = nn.SequentialCell([nn.ReLU()])

    def construct(self, x):
        return self.inner(x * self.weight)


def _free_function(x):
    return x * FREE


X = Tensor(np.ones(2, np.float32))


@pytest.mark.parametrize("cell", [ReadsAFreeParameter, lambda: nn.SequentialCell([Inner()])])
def test_a_cell_reading_a_parameter_no_cell_owns_is_refused(cell, tmp_path):
    with pytest.raises(ValueError, match="Parameter that wasn't created in nn.Cell.*The parameter name is: free"):
        ms.export(cell(), X, file_name=str(tmp_path / "net"), file_format="MINDIR")
    assert os.listdir(tmp_path) == []


def test_a_parameter_is_not_a_network(tmp_path):
    with pytest.raises(RuntimeError, match="is not function or method"):
        ms.export(FREE, X, file_name=str(tmp_path / "p"), file_format="MINDIR")
    assert os.listdir(tmp_path) == []


def test_cells_owning_their_parameters_and_functions_export(tmp_path):
    ms.export(Owns(), X, file_name=str(tmp_path / "owned"), file_format="MINDIR")
    # A function's weights are the Parameters it reads, as MindSpore exports them.
    ms.export(_free_function, X, file_name=str(tmp_path / "function"), file_format="MINDIR")
    assert sorted(os.listdir(tmp_path)) == ["function.mindir", "owned.mindir"]
    graph = nn.GraphCell(ms.load(str(tmp_path / "owned.mindir")))
    np.testing.assert_allclose(graph(X).asnumpy(), [3.0, 3.0])


class BuildsInConstruct(nn.Cell):
    def construct(self, x):
        return Owns()(x) + 1


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_a_parameter_created_in_construct_is_refused(mode, tmp_path):
    ms.set_context(mode=mode)
    try:
        with pytest.raises(ValueError, match="wasn't created in nn.Cell.*The parameter name is: weight"):
            ms.export(BuildsInConstruct(), X, file_name=str(tmp_path / "net"), file_format="MINDIR")
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert os.listdir(tmp_path) == []
