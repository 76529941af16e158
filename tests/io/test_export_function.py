"""export of a function (``ms.jit``-decorated or plain) as MindSpore 2.10 allows: its weights are the
Parameters it reads. Expected values: the oracle gives [4, 2, 2], [2, 2, 3] (weights ['w']) and
[11, 9, 6] for these three functions, the NumPy values below."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, jit, nn

WEIGHT = np.array([1.0, 2.0, 3.0], np.float32)


def _round_trip(function, value, tmp_path):
    path = str(tmp_path / function.__name__)
    ms.export(function, value, file_name=path, file_format="MINDIR")
    return nn.GraphCell(ms.load(path + ".mindir"))


def test_plain_function(tmp_path):
    def double(x):
        return x * 2

    graph = _round_trip(double, Tensor(np.array([2.0, 1.0, 1.0], np.float32)), tmp_path)
    np.testing.assert_allclose(graph(Tensor(np.array([2.0, 1.0, 1.0], np.float32))).asnumpy(), [4.0, 2.0, 2.0])
    assert graph.trainable_params() == []


def test_jit_function_reading_a_parameter_exports_it_as_a_weight(tmp_path):
    weight = Parameter(Tensor(WEIGHT), name="w")

    @jit
    def scale(x):
        return x * weight

    data = np.array([2.0, 1.0, 1.0], np.float32)
    graph = _round_trip(scale, Tensor(data), tmp_path)
    np.testing.assert_allclose(graph(Tensor(data)).asnumpy(), data * WEIGHT)
    assert [parameter.name for parameter in graph.trainable_params()] == ["w"]


def test_jit_function_with_a_constant_tensor(tmp_path):
    @jit
    def add_tensor(i):
        return Tensor([9, 8, 5], ms.int32) + i

    data = Tensor([2, 1, 1], ms.int32)
    graph = _round_trip(add_tensor, data, tmp_path)
    np.testing.assert_array_equal(graph(data).asnumpy(), [11, 9, 6])
    np.testing.assert_array_equal(add_tensor(data).asnumpy(), [11, 9, 6])


def test_export_rejects_a_non_callable(tmp_path):
    with pytest.raises(TypeError, match="Cell or a function"):
        ms.export(3, Tensor([1.0]), file_name=str(tmp_path / "x"), file_format="MINDIR")
