"""ops.ScaleAndTranslate against outputs recorded from MindSpore 2.10
(tests/fixtures/surface_ops/record_scale_and_translate.py): every kernel, with and without antialias."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "surface_ops", "scale_and_translate.json")
with open(FIXTURE) as _file:
    RECORDED = json.load(_file)


@pytest.mark.parametrize("case", RECORDED["cases"],
                         ids=lambda c: f"{c['kernel']}-{'aa' if c['antialias'] else 'noaa'}-{c['size']}")
def test_scale_and_translate_matches_mindspore(case):
    out = ops.ScaleAndTranslate(case["kernel"], case["antialias"])(
        Tensor(np.asarray(RECORDED["image"], np.float32)), Tensor(np.array(case["size"], np.int32)),
        Tensor(np.array(case["scale"], np.float32)), Tensor(np.array(case["translation"], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), case["output"], rtol=1e-4, atol=1e-5)


def test_scale_and_translate_checks_its_arguments():
    with pytest.raises(ValueError, match="kernel_type"):
        ops.ScaleAndTranslate("bicubic")
    image = Tensor(np.zeros((1, 2, 2, 1), np.float32))
    with pytest.raises(ValueError, match="'images' must be 4-D"):
        ops.ScaleAndTranslate()(Tensor(np.zeros((2, 2), np.float32)), Tensor(np.array([2, 2], np.int32)),
                                Tensor(np.ones(2, np.float32)), Tensor(np.zeros(2, np.float32)))
    with pytest.raises(ValueError, match="'scale'"):
        ops.ScaleAndTranslate()(image, Tensor(np.array([2, 2], np.int32)), Tensor(np.array([1.0, 0.0], np.float32)),
                                Tensor(np.zeros(2, np.float32)))


def test_scale_and_translate_compiles_with_constant_sizes_and_refuses_traced_ones():
    image = Tensor(np.asarray(RECORDED["image"], np.float32))
    case = RECORDED["cases"][0]
    size, scale, shift = (Tensor(np.array(case[key], dtype)) for key, dtype in
                          (("size", np.int32), ("scale", np.float32), ("translation", np.float32)))
    op = ops.ScaleAndTranslate(case["kernel"], case["antialias"])
    compiled = ms.jit(lambda x: op(x, size, scale, shift))(image)
    np.testing.assert_allclose(compiled.asnumpy(), case["output"], rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="'size'.*constant"):
        ms.jit(lambda x, s: op(x, s, scale, shift))(image, size)
