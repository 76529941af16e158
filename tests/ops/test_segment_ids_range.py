"""Unsorted segment reductions: an id >= num_segments raises RuntimeError (eagerly and from a compiled
program), negative ids are dropped — MindSpore 2.10's CPU kernels; values against NumPy."""
import numpy as np
import pytest

import sporax
from sporax import Tensor, ops

KINDS = {"sum": np.add, "max": np.maximum, "min": np.minimum, "prod": np.multiply}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_negative_ids_are_dropped(kind):
    x = np.array([1, 2, 3, 4], np.float32)
    ids = np.array([0, -1, 1, 1], np.int32)
    out = getattr(ops, f"unsorted_segment_{kind}")(Tensor(x), Tensor(ids), 2).asnumpy()
    expect = [KINDS[kind].reduce(x[ids == segment]) for segment in range(2)]
    np.testing.assert_allclose(out, expect)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_id_past_num_segments_raises(kind):
    function = getattr(ops, f"unsorted_segment_{kind}")
    x, ids = Tensor(np.array([1, 2, 3, 4], np.float32)), Tensor(np.array([0, 0, 1, 2], np.int32))
    with pytest.raises(RuntimeError, match="num_segments"):
        function(x, ids, 2)
    compiled = sporax.jit(lambda a, b: function(a, b, 2))
    with pytest.raises(RuntimeError, match="num_segments"):
        compiled(x, ids).asnumpy()
    np.testing.assert_allclose(compiled(x, Tensor(np.array([0, 0, 1, 1], np.int32))).asnumpy(),
                               [KINDS[kind](1, 2), KINDS[kind](3, 4)])
