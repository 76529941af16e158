"""MixUpBatch and CutMixBatch give MindSpore 2.10's exact values under a dataset seed (eagerly and in a map, any
worker count), and the GCC distributions they draw from give libstdc++'s values.

The eager and pipeline outputs were recorded on MindSpore 2.10 (``batch_mixing_cases.py``); the gamma and normal
draws with GCC 12's libstdc++ (``std::gamma_distribution<float>``/``std::normal_distribution<float>`` over
``std::mt19937(seed)``).
"""
import os

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as vision
from sporax.dataset.engine.gamma_draws import Gamma, Normal
from sporax.dataset.engine.sampler_order import TwisterWords
from tests.dataset import batch_mixing_cases

ORACLE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "dataset", "batch_mixing_oracle.npz")


@pytest.fixture(scope="module")
def oracle():
    with np.load(ORACLE) as recorded:
        return dict(recorded)


def test_eager_batches_equal_mindspores(oracle):
    # Every batch size 1..5, alpha below/at/above 1, prob 0/0.5/0.8/1, NHWC/NCHW, 1 or 3 channels, uint8 and
    # float32 images, <N, C> and <N, L, C> labels of int32/int64/uint8.
    for index, case in enumerate(batch_mixing_cases.cases()):
        images, labels = batch_mixing_cases.run_case(ds, vision, case, index)
        expected_images, expected_labels = oracle[f"{index}/images"], oracle[f"{index}/labels"]
        assert images.dtype == expected_images.dtype and labels.dtype == expected_labels.dtype, case
        np.testing.assert_array_equal(images, expected_images, err_msg=str(case))
        np.testing.assert_array_equal(labels, expected_labels, err_msg=str(case))


@pytest.mark.parametrize("kind,workers", batch_mixing_cases.PIPELINES)
def test_seeded_map_equals_mindspores(oracle, kind, workers):
    # Each map worker's copy draws from std::mt19937(seed + worker) and keeps its stream across batches and epochs.
    got = batch_mixing_cases.run_pipeline(ds, vision, kind, workers)
    np.testing.assert_array_equal(got, oracle[f"pipeline/{kind}/{workers}"])


GAMMA_DRAWS = {  # the first six draws of one std::gamma_distribution<float>(alpha, 1) over std::mt19937(seed)
    (1, 0.2): [4.08920641e-05, 1.01534092, 0.00518522179, 0.0038481066, 1.96262598, 0.0714271143],
    (1, 1.0): [0.949439287, 0.802384973, 0.376724184, 0.302106351, 0.374300987, 0.0884777158],
    (1, 2.5): [2.6496923, 2.4046042, 1.60009849, 1.43347919, 1.59487116, 0.836800456],
    (42, 0.2): [0.000534688006, 0.135136634, 0.0589399859, 3.41032646e-05, 0.00334782084, 2.20895818e-05],
    (42, 1.0): [2.24481654, 0.327384114, 1.65864336, 1.44609761, 0.525254548, 0.0909942836],
    (42, 2.5): [4.50889015, 1.49132359, 3.71537352, 3.41132331, 1.90273368, 0.845995188],
}


@pytest.mark.parametrize("seed,alpha", sorted(GAMMA_DRAWS))
def test_gamma_draws_equal_libstdcxx(seed, alpha):
    words, gamma = TwisterWords(seed), Gamma(alpha)
    got = [gamma(words) for _ in range(6)]
    np.testing.assert_array_equal(np.array(got, np.float32), np.array(GAMMA_DRAWS[seed, alpha], np.float32))


def test_normal_draws_equal_libstdcxx():
    # The polar method's second value is kept for the next call: draws 1 and 2 come from one pair of words.
    words, normal = TwisterWords(3), Normal()
    expected = [-0.75775224, 0.0896679163, 0.811979353, 0.497167826, -0.666402459, -0.367974967]
    np.testing.assert_array_equal(np.array([normal(words) for _ in range(6)], np.float32),
                                  np.array(expected, np.float32))


def test_unseeded_batches_mix_with_partners():
    # Without a seed the same kernels draw from the pipeline generator: still one partner per image, label mass 1.
    images = np.stack([np.full((4, 4, 3), 40 * i, np.uint8) for i in range(5)])
    labels = np.eye(5, dtype=np.int32)
    mixed, mixed_labels = vision.MixUpBatch(0.5)(images, labels)
    np.testing.assert_allclose(mixed_labels.sum(axis=1), 1.0, rtol=1e-6)
    # Row i's label is w * e_i + (1 - w) * e_partner: its other non-zero entry names the partner.
    partners = [next((j for j in np.flatnonzero(row) if j != i), i) for i, row in enumerate(mixed_labels)]
    moved = [i for i in range(5) if partners[i] != i] or [0]
    weight = np.float32(mixed_labels[moved[0], moved[0]])
    expected = np.rint(weight * images[:, 0, 0, 0].astype(np.float32)
                       + (np.float32(1) - weight) * images[partners, 0, 0, 0].astype(np.float32))
    assert np.abs(mixed[:, 0, 0, 0].astype(np.float32) - expected).max() <= 1
    cut, cut_labels = vision.CutMixBatch(vision.ImageBatchFormat.NHWC, 1.0, 1.0)(images, labels)
    np.testing.assert_allclose(cut_labels.sum(axis=1), 1.0, rtol=1e-6)
    for index in range(5):  # each pixel comes from the image itself or one partner
        assert len(np.unique(cut[index])) <= 2


@pytest.mark.parametrize("build,error,message", [
    (lambda: vision.MixUpBatch(0), ValueError, "MixUpBatch: Input alpha is not within"),
    (lambda: vision.MixUpBatch("x"), TypeError, "MixUpBatch: argument alpha"),
    (lambda: vision.MixUpBatch(True), TypeError, "MixUpBatch: argument alpha"),
    (lambda: vision.CutMixBatch(1), TypeError, "CutMixBatch: argument image_batch_format"),
    (lambda: vision.CutMixBatch(vision.ImageBatchFormat.NHWC, -1.0), ValueError, "CutMixBatch: Input alpha"),
    (lambda: vision.CutMixBatch(vision.ImageBatchFormat.NHWC, 1.0, 1.5), ValueError, "CutMixBatch: Input prob"),
])
def test_bad_arguments_name_the_operation(build, error, message):
    with pytest.raises(error, match=message):
        build()


@pytest.mark.parametrize("images,labels,message", [
    (np.zeros((5, 5, 3), np.uint8), np.eye(5, dtype=np.int32), "rank 4"),
    (np.zeros((4, 5, 5, 4), np.uint8), np.eye(4, dtype=np.int32), "1 or 3 channels"),
    (np.zeros((4, 5, 5, 3), np.uint8), np.arange(4, dtype=np.int32), "one-hot"),
])
def test_bad_batches_name_the_operation(images, labels, message):
    # MindSpore 2.10 rejects these three (RuntimeError from its kernels) for both operations.
    for operation in (vision.MixUpBatch(), vision.CutMixBatch(vision.ImageBatchFormat.NHWC)):
        with pytest.raises(RuntimeError, match=f"{type(operation).__name__}: .*{message}"):
            operation(images, labels)


def test_seeded_mixup_equals_mindspores(seeded):
    # MindSpore's MixUp is Python: Beta weights from NumPy's global generator, which set_seed seeds.
    seeded(3)
    images = np.random.default_rng(0).integers(0, 256, (4, 3, 3, 3), dtype=np.uint8)
    _, labels = vision.MixUp(4, 0.5)(images, np.eye(4, dtype=np.float32))
    expected = [[0.376937, 0.623063, 0.0, 0.0], [0.0, 0.244887, 0.755113, 0.0], [0.0, 0.0, 0.268585, 0.731415],
                [0.986551, 0.0, 0.0, 0.013449]]  # MindSpore 2.10, rounded to 6 digits
    np.testing.assert_allclose(labels, expected, atol=5e-7)
