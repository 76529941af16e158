"""read_video, read_video_timestamps, DecodeVideo, VideoDecoder (against MindSpore 2.10 on
fixtures/dataset/video) and MixUp."""
import os

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.vision as vision

VIDEO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "dataset",
                     "video")
RAMP = os.path.join(VIDEO, "ramp.mp4")


@pytest.fixture
def mindspore_frames():
    pytest.importorskip("av")
    return np.load(os.path.join(VIDEO, "ramp_mindspore.npz"))["frames"]


def test_read_video(mindspore_frames):
    video, audio, metadata = vision.read_video(RAMP)
    assert video.dtype == np.uint8 and video.shape == mindspore_frames.shape == (5, 8, 16, 3)
    # FFmpeg's YUV->RGB conversion rounds one grey level differently here than in MindSpore
    np.testing.assert_allclose(video, mindspore_frames, atol=1)
    assert audio.shape == (1, 0) and audio.dtype == np.float32
    assert metadata == {"video_fps": 10.0}
    part = vision.read_video(RAMP, start_pts=0.15, end_pts=0.35, pts_unit="sec")[0]
    np.testing.assert_allclose(part, mindspore_frames[2:4], atol=1)
    assert vision.read_video(RAMP, start_pts=2, end_pts=3)[0].shape == (0, 8, 16, 3)


def test_read_video_timestamps(mindspore_frames):
    assert vision.read_video_timestamps(RAMP) == ([0, 1024, 2048, 3072, 4096], 10.0)
    assert vision.read_video_timestamps(RAMP, "sec") == (
        [0.0, 0.10000000149011612, 0.20000000298023224, 0.30000000447034836, 0.4000000059604645],
        10.0)
    with pytest.raises(RuntimeError, match="pts_unit"):
        vision.read_video_timestamps(RAMP, "ms")
    with pytest.raises(RuntimeError, match="does not exist"):
        vision.read_video(RAMP + ".missing")


def test_decode_video_and_video_decoder(mindspore_frames):
    video, audio = vision.DecodeVideo()(np.fromfile(RAMP, np.uint8))
    np.testing.assert_allclose(video, mindspore_frames, atol=1)
    with pytest.raises(RuntimeError, match="uint8"):
        vision.DecodeVideo()(np.zeros(4, np.int32))
    decoder = vision.VideoDecoder(RAMP)
    assert decoder.metadata == {"width": 16, "height": 8, "duration_seconds": 0.5,
                                "num_frames": 5, "average_fps": 10.0}
    np.testing.assert_allclose(decoder.get_frames_at([0, 3]), mindspore_frames[[0, 3]], atol=1)
    with pytest.raises(ValueError, match="range"):
        decoder.get_frames_at([5])


def test_mixup_single_batch():
    images = np.arange(3 * 2 * 2 * 3).reshape(3, 2, 2, 3).astype(np.uint8) * 3
    labels = np.eye(3, 4)
    ds.config.set_seed(1)
    mixed, mixed_labels = vision.MixUp(3, 0.5)(images, labels)
    assert mixed.dtype == np.float64 and mixed.shape == images.shape
    weights = mixed_labels[np.arange(3), np.arange(3)]  # each label keeps its own weight
    other = images[[1, 2, 0]]
    expected = weights[:, None, None, None] * images + (1 - weights[:, None, None, None]) * other
    np.testing.assert_allclose(mixed, expected)
    np.testing.assert_allclose(mixed_labels.sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="batch_size"):  # MindSpore 2.10: ValueError, shapes do not broadcast
        vision.MixUp(2, 0.5)(images, labels)


def test_mixup_broadcasts_a_longer_batch_against_batch_size_as_mindspore():
    # MindSpore 2.10's MixUp example batches 4 samples and mixes them with batch_size=1: one weight,
    # every sample mixed with the first; labels of any rank (here (4, 3, 10)) follow.
    images = np.random.RandomState(0).randint(0, 255, (4, 2, 2, 3)).astype(np.uint8)
    labels = np.random.RandomState(1).rand(4, 3, 10)
    mixed, mixed_labels = vision.MixUp(batch_size=1, alpha=0.2)(images, labels)
    assert mixed.shape == (4, 2, 2, 3) and mixed.dtype == np.float64 and mixed_labels.shape == (4, 3, 10)
    np.testing.assert_allclose(mixed[0], images[0])
    # The weight is drawn from Beta(0.2, 0.2), so it can be as small as 1e-13: recover it by least squares
    # over sample 1's labels rather than element by element, which loses every digit near 0 or 1.
    difference = labels[1] - labels[0]
    weight = float(np.sum((mixed_labels[1] - labels[0]) * difference) / np.sum(difference * difference))
    assert 0.0 <= weight <= 1.0
    expected = weight * images + (1 - weight) * images[:1].astype(np.float64)
    np.testing.assert_allclose(mixed, expected, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(mixed_labels, weight * labels + (1 - weight) * labels[:1], rtol=1e-7, atol=1e-12)


def test_mixup_across_batches_broadcasts_one_image_to_batch_size():
    # MindSpore 2.10's eager example: one (H, W, C) image and a (1, 2) label with batch_size=2.
    image = np.random.RandomState(0).randint(0, 255, (5, 5, 3)).astype(np.uint8)
    mixed, mixed_labels = vision.MixUp(batch_size=2, alpha=0.2, is_single=False)(image, np.array([[0, 1]]))
    assert mixed.shape == (2, 5, 5, 3) and mixed.dtype == np.float64
    np.testing.assert_array_equal(mixed, np.stack([image, image]))
    assert mixed_labels.tolist() == [[0.0, 1.0], [0.0, 1.0]]


def test_mixup_across_batches():
    images, labels = np.ones((2, 2, 2, 1)), np.eye(2)
    mixup = vision.MixUp(2, 0.5, is_single=False)
    first_images, first_labels = mixup(images, labels)
    np.testing.assert_array_equal(first_labels, labels)  # the first batch passes unchanged
    second_images, second_labels = mixup(images * 3, labels[::-1])
    assert ((second_images >= 1) & (second_images <= 3)).all()
    np.testing.assert_allclose(second_labels.sum(axis=1), 1.0)
