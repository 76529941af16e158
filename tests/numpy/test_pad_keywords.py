"""mindspore.numpy.pad ignores keywords its mode does not use, as MindSpore 2.10 does (recorded on MindSpore 2.10
CPU): mindspore_quaternion pads with a misspelt ``constant_value=0`` and gets the default zeros."""
import numpy as np
import pytest

import sporax
import sporax.numpy as mnp


@pytest.mark.parametrize("settings, expected", [
    ({"constant_value": 5}, [[0.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0]]),
    ({"mode": "constant", "foo": 5, "constant_values": 2}, [[2.0, 1.0, 1.0, 1.0], [2.0, 1.0, 1.0, 1.0]]),
    ({"mode": "edge", "foo": 1}, [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]),
    ({"mode": "reflect", "constant_values": 3}, [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]),
    ({"mode": "wrap", "bar": 2}, [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]),
])
def test_unused_keywords_are_ignored(settings, expected):
    x = sporax.Tensor(np.ones((2, 3), np.float32))
    assert mnp.pad(x, ((0, 0), (1, 0)), **settings).asnumpy().tolist() == expected
