"""nn.Conv2dBnAct / nn.DenseBnAct against MindSpore 2.10 (tests/fixtures/api/combined.npz)."""
import os
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "api"))
from record_combined import run  # noqa: E402  (imports mindspore only when run as a script)

ORACLE = np.load(os.path.join(HERE, "..", "fixtures", "api", "combined.npz"))


def test_matches_oracle():
    got = run(ms, nn)
    for key in ORACLE:
        if key == "names":
            assert got[key].tolist() == ORACLE[key].tolist()
        else:
            np.testing.assert_allclose(got[key], ORACLE[key], rtol=1e-5, atol=1e-5, err_msg=key)


def test_bad_activation():
    with pytest.raises(TypeError, match="activation"):
        nn.Conv2dBnAct(3, 4, 3, activation=3)
    with pytest.raises(TypeError, match="has_bn"):
        nn.DenseBnAct(3, 4, has_bn=1)
