"""nn.Jvp / nn.Vjp against MindSpore 2.10 (tests/fixtures/api/jvp_vjp.json)."""
import json
import os
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "api"))
from record_jvp_vjp import record  # noqa: E402  (imports mindspore only when run as a script)

with open(os.path.join(HERE, "..", "fixtures", "api", "jvp_vjp.json")) as _f:
    ORACLE = json.load(_f)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_jvp_vjp_match_oracle(mode):
    ms.set_context(mode=mode)
    try:
        got = record(ms, nn)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for key, expected in ORACLE.items():
        np.testing.assert_allclose(np.array(got[key][0]), np.array(expected[0]), rtol=1e-6)
        if key == "vjp_two":
            for g, e in zip(got[key][1], expected[1]):
                np.testing.assert_allclose(np.array(g), np.array(e), rtol=1e-6)
        else:
            np.testing.assert_allclose(np.array(got[key][1]), np.array(expected[1]), rtol=1e-6)
