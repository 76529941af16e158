"""mint.nn activation Cells and mint.item against MindSpore 2.10's docstring examples (values printed there)."""
import numpy as np
import pytest

import sporax as ms
from sporax import mint


def test_glu_halves_the_last_dim_by_default():
    out = mint.nn.GLU()(ms.tensor([[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8]]))
    np.testing.assert_allclose(out.asnumpy(), [[0.05744425, 0.11973753], [0.33409387, 0.41398472]], rtol=1e-6)
    assert mint.nn.GLU(dim=0).dim == 0


def test_item_answers_a_python_number():
    value = mint.item(ms.Tensor(np.array([1]).astype(np.float32)))
    assert value == 1.0 and type(value) is float
    with pytest.raises(TypeError, match="mint.item"):
        mint.item([1.0])
