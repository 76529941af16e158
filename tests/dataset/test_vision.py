"""sporax.dataset.vision vs MindSpore 2.10's recorded outputs, NumPy/Pillow references and error cases."""
import importlib.util
import os

import numpy as np
import pytest
from PIL import Image

import sporax.dataset as ds
import sporax.dataset.transforms as T
import sporax.dataset.vision as V
from sporax.core import dtype as ms
from sporax.dataset import config
from sporax.dataset.core.random import make_rng, set_current_rng

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("dataset_oracle_cases", os.path.join(HERE, "oracle_cases.py"))
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
ORACLE = np.load(os.path.join(HERE, "..", "fixtures", "dataset", "transforms_oracle.npz"))
INPUTS = {key[len("input/"):]: ORACLE[key] for key in ORACLE.files if key.startswith("input/")}


@pytest.mark.parametrize("name,expression,atol,fraction", cases.CASES, ids=[c[0] for c in cases.CASES])
def test_matches_mindspore(name, expression, atol, fraction):
    want = ORACLE[name]
    got = np.asarray(eval(expression, {"V": V, "T": T, "ms": ms, "np": np, "Image": Image, **INPUTS}))
    assert got.shape == want.shape and got.dtype == want.dtype
    if want.dtype.kind in "USb":
        np.testing.assert_array_equal(got, want)
    else:
        outside = np.abs(got.astype(np.float64) - want.astype(np.float64)) > atol
        assert outside.mean() <= fraction, f"{name}: {outside.mean():.3f} of elements differ by more than {atol}"


@pytest.fixture
def rng():
    """Install a fixed generator as the pipeline generator for the duration of a test."""
    previous = set_current_rng(make_rng(1234))
    yield
    set_current_rng(previous)


IMG = INPUTS["img"]


def test_enums():
    assert V.Inter.LINEAR is V.Inter.BILINEAR and V.Inter.CUBIC is V.Inter.BICUBIC
    assert [m.name for m in V.Inter] == ["NEAREST", "ANTIALIAS", "BILINEAR", "BICUBIC", "AREA", "PILCUBIC"]
    assert V.Border.CONSTANT.value == "constant" and V.ImageBatchFormat.NCHW == 1 and V.SliceMode.DROP == 1


def test_resize_int_keeps_aspect_ratio_and_pil_stays_pil():
    assert V.Resize(2)(np.zeros((4, 8, 3), np.uint8)).shape == (2, 4, 3)
    assert V.Resize(3)(np.zeros((9, 4), np.uint8)).shape == (6, 3)
    out = V.Resize((5, 7))(Image.fromarray(IMG))
    assert isinstance(out, Image.Image) and out.size == (7, 5)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(Image.fromarray(IMG).resize((7, 5), Image.BILINEAR)))


def test_resize_nearest_matches_numpy_indexing():
    out = V.Resize((26, 34), V.Inter.NEAREST)(IMG)
    np.testing.assert_array_equal(out, IMG.repeat(2, axis=0).repeat(2, axis=1))


def test_resize_steps_by_the_inverse_ratio_as_opencv():
    """MindSpore 2.10 (OpenCV's cv::resize; /tmp/zoo23-probe/nn_resize.py, rs_small.py): the source step is
    1 / (out / in) in double, so 52 -> 20 nearest rows read row 12 (not 13) for output 5, and bilinear source
    positions are float32 (a float image resized 12 -> 7 rows, recorded values, bit for bit)."""
    rows = np.arange(52, dtype=np.uint8)[:, None, None].repeat(44, axis=1).repeat(3, axis=2)
    out = V.Resize((20, 30), V.Inter.NEAREST)(rows)
    assert out[:, 0, 0].tolist() == [0, 2, 5, 7, 10, 12, 15, 18, 20, 23, 25, 28, 31, 33, 36, 38, 41, 44, 46, 49]
    image = (np.arange(12, dtype=np.float32) * 1.37 % 5)[:, None, None].repeat(2, axis=1).repeat(3, axis=2)
    want = np.array([0.48928573727607727, 2.8378570079803467, 1.257856845855713, 2.5350000858306885,
                     3.8121426105499268, 2.2321431636810303, 1.3664268255233765], np.float32)
    np.testing.assert_array_equal(V.Resize((7, 2), V.Inter.BILINEAR)(image)[:, 0, 0], want)


def test_resize_area_enlarging_fraction_is_a_float32():
    """MindSpore 2.10 (/tmp/zoo23-probe/rs_find3.py): INTER_AREA growing 14 -> 18 rows takes OpenCV's float32
    fraction, which is 0 at output row 9 (a double one is just under 1 and reads the next row instead)."""
    i, j, c = np.arange(14)[:, None, None], np.arange(3)[None, :, None], np.arange(3)[None, None, :]
    out = V.Resize((18, 3), V.Inter.AREA)(((i * 37 + j * 91 + c * 53 + i * j * 7) % 256).astype(np.uint8))
    assert out[9].tolist() == [[222, 19, 72], [99, 152, 205], [232, 29, 82]]
    assert int(out.astype(np.int64).sum()) == 20719


def test_resize_bicubic_8_bit_column_pass_is_opencvs_float32_sum():
    """MindSpore 2.10 (/tmp/zoo23-probe/rs_find.py, rs_find2.py): the 8-bit bicubic column pass sums in float32
    and rounds half to even, so 6 -> 3 rows gives 92 where an exact integer sum rounds to 93."""
    i, j, c = np.arange(6)[:, None, None], np.arange(3)[None, :, None], np.arange(3)[None, None, :]
    image = ((i * 37 + j * 91 + c * 53 + i * j * 7) % 256).astype(np.uint8)
    want = [[[15, 68, 121], [109, 162, 239], [227, 128, 53]], [[92, 146, 198], [225, 126, 27], [30, 106, 160]],
            [[170, 223, 148], [13, 90, 143], [160, 213, 138]]]
    assert V.Resize((3, 3), V.Inter.BICUBIC)(image).tolist() == want
    # the last (W * C) % 8 elements of a row take OpenCV's scalar loop, an exact integer sum: 4 -> 3 rows
    want = [[[5, 58, 111], [96, 149, 207], [193, 205, 38]], [[56, 108, 162], [157, 234, 135], [130, 32, 109]],
            [[106, 159, 212], [217, 51, 63], [68, 126, 179]]]
    assert V.Resize((3, 3), V.Inter.BICUBIC)(image[:4]).tolist() == want
    # and the cubic weights are OpenCV's float32 ones: 45 -> 83 rows, recorded pixels and total
    i, j = np.arange(45)[:, None, None], np.arange(40)[None, :, None]
    out = V.Resize((83, 40), V.Inter.BICUBIC)(((i * 37 + j * 91 + c * 53 + i * j * 7) % 256).astype(np.uint8))
    assert [out[2, 5, 2], out[2, 18, 0], out[2, 18, 1]] == [107, 8, 61] and int(out.astype(np.int64).sum()) == 1268606


def test_rescale_normalize_hwc2chw_reference():
    image = IMG
    rescaled = V.Rescale(1 / 255, 0.1)(image)
    np.testing.assert_allclose(rescaled, image.astype(np.float32) / 255 + 0.1, rtol=1e-6)
    mean, std = [0.5, 0.4, 0.3], [0.2, 0.25, 0.3]
    normalized = V.Normalize(mean, std)(rescaled)
    assert normalized.dtype == np.float32
    np.testing.assert_allclose(normalized, (rescaled - mean) / std, rtol=1e-5, atol=1e-6)
    chw = V.HWC2CHW()(normalized)
    assert chw.shape == (3, 13, 17) and chw.flags.c_contiguous
    np.testing.assert_array_equal(chw, normalized.transpose(2, 0, 1))


def test_totensor_topil_tonumpy():
    tensor = V.ToTensor()(IMG)
    assert tensor.dtype == np.float32 and tensor.shape == (3, 13, 17)
    np.testing.assert_allclose(tensor, IMG.transpose(2, 0, 1) / 255.0, rtol=1e-6)
    pil = V.ToPIL()(IMG)
    assert isinstance(pil, Image.Image) and pil.mode == "RGB"
    assert V.ToPIL()(IMG[..., 0]).mode == "L"
    np.testing.assert_array_equal(V.ToNumpy()(pil), IMG)
    assert V.ToType(ms.float16)(IMG).dtype == np.float16


def test_to_numpy_takes_any_rank_as_mindspore():
    # MindSpore 2.10's ToNumpy example: a list of 32 (32, 3, 3) int32 arrays.
    data = list(np.random.RandomState(0).randint(0, 255, size=(32, 32, 3, 3)).astype(np.int32))
    output = V.ToNumpy()(data)
    assert type(output) is np.ndarray and output.shape == (32, 32, 3, 3) and output.dtype == np.int32
    np.testing.assert_array_equal(output, np.stack(data))
    assert V.ToNumpy()([np.zeros((2, 2))]).shape == (1, 2, 2)
    with pytest.raises(TypeError, match="ToNumpy"):
        V.ToNumpy()([np.zeros(2), np.zeros(3)])


def test_random_crop_padding_and_determinism(rng):
    image = np.arange(16, dtype=np.uint8).reshape(4, 4) + 1
    crops = [V.RandomCrop(4, padding=2)(image) for _ in range(40)]
    offsets = set()
    for crop in crops:
        padded = np.pad(image, 2)
        found = [(y, x) for y in range(5) for x in range(5) if np.array_equal(padded[y:y + 4, x:x + 4], crop)]
        assert found, "every crop is a window of the zero-padded image"
        offsets.add(found[0])
    assert len(offsets) > 5  # positions vary
    set_current_rng(make_rng(7))
    first = [V.RandomCrop(3)(IMG) for _ in range(5)]
    set_current_rng(make_rng(7))
    second = [V.RandomCrop(3)(IMG) for _ in range(5)]
    assert all(np.array_equal(a, b) for a, b in zip(first, second))


def test_random_crop_pad_if_needed_fill_and_modes(rng):
    out = V.RandomCrop((6, 4), pad_if_needed=True, fill_value=9)(np.zeros((4, 4), np.uint8))
    assert out.shape == (6, 4) and set(np.unique(out)) <= {0, 9} and (out == 9).any()
    edge = V.RandomCrop(6, padding=1, padding_mode=V.Border.EDGE)(INPUTS["small"])
    np.testing.assert_array_equal(edge, np.pad(INPUTS["small"], ((1, 1), (1, 1), (0, 0)), mode="edge"))
    filled = V.RandomCrop(6, padding=1, fill_value=(1, 2, 3))(INPUTS["small"])
    np.testing.assert_array_equal(filled[0, 0], [1, 2, 3])


def test_batched_paths_match_per_row():
    images = np.random.default_rng(3).integers(0, 256, (9, 8, 8, 3), dtype=np.uint8)
    for op in (V.RandomCrop(8, padding=3), V.RandomCrop(6, padding=(1, 2), padding_mode=V.Border.REFLECT),
               V.RandomHorizontalFlip(), V.RandomVerticalFlip(0.3), V.Rescale(0.5, 1),
               V.Normalize([1, 2, 3], [4, 5, 6]),
               V.HWC2CHW(), V.HorizontalFlip(), V.ToTensor(), T.TypeCast(ms.float16), T.Compose([V.VerticalFlip()])):
        set_current_rng(make_rng(5))
        batched = op._batch_call(images)
        set_current_rng(make_rng(5))
        rows = np.stack([op(image) for image in images])
        set_current_rng(None)
        np.testing.assert_array_equal(batched, rows, err_msg=type(op).__name__)


def test_random_flip_covers_both_branches(rng):
    flipped = [np.array_equal(V.RandomHorizontalFlip()(IMG), IMG[:, ::-1]) for _ in range(30)]
    assert any(flipped) and not all(flipped)
    assert np.array_equal(V.RandomVerticalFlip(1.0)(IMG), IMG[::-1])
    assert np.array_equal(V.RandomVerticalFlip(0.0)(IMG), IMG)


def test_eager_random_ops_follow_dataset_seed():
    config.set_seed(11)
    first = [V.RandomCrop(5)(IMG) for _ in range(3)]
    config.set_seed(11)
    second = [V.RandomCrop(5)(IMG) for _ in range(3)]
    assert all(np.array_equal(a, b) for a, b in zip(first, second))


def test_random_resized_crop_and_decode_resize(rng):
    out = V.RandomResizedCrop((5, 7), scale=(0.5, 1.0))(IMG)
    assert out.shape == (5, 7, 3) and out.dtype == np.uint8
    full = V.RandomResizedCrop((13, 17), scale=(1.0, 1.0), ratio=(17 / 13, 17 / 13))(IMG)
    np.testing.assert_array_equal(full, IMG)
    decoded = V.RandomCropDecodeResize(3)(INPUTS["png"])
    assert decoded.shape == (3, 3, 3)
    pil = V.RandomResizedCrop(4)(Image.fromarray(IMG))
    assert isinstance(pil, Image.Image) and pil.size == (4, 4)


def test_random_rotation_range_and_exact_quarter_turn(rng):
    np.testing.assert_array_equal(V.RandomRotation((90, 90), expand=True)(IMG), np.rot90(IMG))
    np.testing.assert_array_equal(V.Rotate(180)(IMG), IMG[::-1, ::-1])
    assert V.RandomRotation(30, expand=True)(np.zeros((10, 20, 3), np.uint8)).shape[2] == 3


def test_color_ops_identity_and_references(rng):
    np.testing.assert_array_equal(V.RandomColorAdjust()(IMG), IMG)
    np.testing.assert_array_equal(V.AdjustBrightness(1.0)(IMG), IMG)
    np.testing.assert_array_equal(V.Invert()(IMG), 255 - IMG)
    np.testing.assert_array_equal(V.Posterize(4)(IMG), IMG & 0xF0)
    np.testing.assert_array_equal(V.Solarize((0, 255))(IMG), 255 - IMG)
    gray = V.Grayscale()(IMG)
    np.testing.assert_array_equal(gray, np.asarray(Image.fromarray(IMG).convert("L")).astype(np.uint8) * 0 + gray)
    assert abs(gray.astype(int) - np.asarray(Image.fromarray(IMG).convert("L"))).max() <= 1
    assert V.Grayscale(3)(IMG).shape == (13, 17, 3)
    assert V.RandomGrayscale(1.0)(IMG).shape == (13, 17, 3)
    assert V.AdjustGamma(1.0)(IMG).dtype == np.uint8
    np.testing.assert_array_equal(V.ConvertColor(V.ConvertMode.COLOR_RGB2BGR)(IMG), IMG[..., ::-1])
    assert V.ConvertColor(V.ConvertMode.COLOR_RGB2RGBA)(IMG).shape == (13, 17, 4)


def test_cutout_erase_slicepatches(rng):
    out = V.CutOut(4, num_patches=2)(IMG)
    assert out.shape == IMG.shape and (out == 0).all(axis=2).sum() >= 16
    assert ((out == IMG) | (out == 0)).all()
    erased = V.Erase(1, 2, 3, 4, value=7)(IMG)
    assert (erased[1:4, 2:6] == 7).all() and np.array_equal(erased[5:], IMG[5:])
    patches = V.SlicePatches(2, 2)(IMG)
    assert len(patches) == 4 and patches[0].shape == (7, 9, 3)


def test_random_select_subpolicy_and_uniform_augment(rng):
    policy = [[(V.Invert(), 1.0)], [(V.HorizontalFlip(), 1.0), (V.Invert(), 0.0)]]
    seen = set()
    for _ in range(20):
        out = V.RandomSelectSubpolicy(policy)(IMG)
        seen.add("invert" if np.array_equal(out, 255 - IMG) else "flip" if np.array_equal(out, IMG[:, ::-1]) else "?")
    assert seen == {"invert", "flip"}
    assert V.UniformAugment([V.Invert(), V.HorizontalFlip()], 1)(IMG).shape == IMG.shape


def test_decode_and_file_helpers(tmp_path):
    png = INPUTS["png"]
    assert V.Decode()(png.tobytes()).shape == (4, 4, 3)
    path = str(tmp_path / "x.png")
    V.write_png(path, INPUTS["small"])
    np.testing.assert_array_equal(V.read_image(path), INPUTS["small"])
    assert V.read_file(path).dtype == np.uint8
    smooth = np.broadcast_to(np.arange(0, 240, 15, dtype=np.uint8)[None, :, None], (16, 16, 3)).copy()
    jpeg = V.encode_jpeg(smooth, 95)
    assert abs(V.Decode()(jpeg).astype(int) - smooth).mean() < 3
    assert V.get_image_size(IMG) == [13, 17] and V.get_image_num_channels(IMG) == 3


@pytest.mark.parametrize("call,error,words", [
    (lambda: V.Resize((2, 2))(np.zeros((4,), np.uint8)), RuntimeError, ["Resize", "<H,W>", "Decode"]),
    (lambda: V.Resize(-1), ValueError, ["Resize", "size"]),
    (lambda: V.Resize((2, 2), "bilinear"), TypeError, ["Resize", "interpolation"]),
    (lambda: V.Resize((2, 2), V.Inter.AREA)(Image.fromarray(IMG)), TypeError, ["Resize", "AREA", "PIL"]),
    (lambda: V.Normalize([1, 2, 3], [0, 1, 1]), ValueError, ["std[0]"]),
    (lambda: V.Normalize([1, 2, 3], [1, 1, 1])(IMG[..., :1]), RuntimeError, ["Normalize", "channels"]),
    (lambda: V.HWC2CHW()(np.zeros((1, 2, 2, 3))), RuntimeError, ["HWC2CHW", "rank: 4"]),
    (lambda: V.RandomCrop(20)(IMG), RuntimeError, ["RandomCrop", "crop size", "pad_if_needed"]),
    (lambda: V.Crop((3, 3), (20, 2))(IMG), RuntimeError, ["Crop", "height"]),
    (lambda: V.Decode()(np.array([1, 2, 3], np.uint8)), RuntimeError, ["Decode", "decode failed"]),
    (lambda: V.Decode()(IMG), TypeError, ["Decode", "already be decoded"]),
    (lambda: V.ToPIL()(IMG.astype(np.float32)), TypeError, ["ToPIL", "float32"]),
    (lambda: V.RandomHorizontalFlip(1.5), ValueError, ["RandomHorizontalFlip", "prob"]),
    (lambda: V.Pad((1, 2, 3)), TypeError, ["Pad", "padding"]),
    (lambda: V.Invert()(IMG[..., 0]), RuntimeError, ["Invert", "RGB"]),
])
def test_errors_name_the_transform(call, error, words):
    with pytest.raises(error) as info:
        call()
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("op", [
    V.AutoAugment(), V.RandAugment(), V.TrivialAugmentWide(), V.RandomAffine(30, (0.1, 0.1), (0.8, 1.2), 10),
    V.RandomPerspective(prob=1.0), V.RandomResize(6), V.RandomLighting(), V.RandomPosterize((2, 6)),
    V.RandomSolarize((50, 200)), V.RandomColor(), V.RandomInvert(), V.RandomEqualize(), V.RandomAutoContrast(),
    V.RandomAdjustSharpness(2.0), V.RandomErasing(prob=1.0), V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1),
], ids=lambda op: type(op).__name__)
def test_random_augmentations_repeat_under_fixed_generator(op):
    def run():
        set_current_rng(make_rng(21))
        try:
            return [op(IMG.transpose(2, 0, 1).copy() if isinstance(op, V.RandomErasing) else IMG) for _ in range(6)]
        finally:
            set_current_rng(None)
    first, second = run(), run()
    for a, b in zip(first, second):
        assert a.dtype == np.uint8
        np.testing.assert_array_equal(a, b)


def test_batch_mixing_keeps_label_mass(rng):
    images = np.stack([np.full((4, 4, 3), 10 * i, np.uint8) for i in range(4)])
    labels = np.eye(4, dtype=np.int32)
    mixed, mixed_labels = V.MixUpBatch(1.0)(images, labels)
    assert mixed.shape == images.shape and mixed.dtype == np.uint8
    np.testing.assert_allclose(mixed_labels.sum(axis=1), 1.0, rtol=1e-6)
    cut, cut_labels = V.CutMixBatch(V.ImageBatchFormat.NHWC)(images, labels)
    assert cut.shape == images.shape and np.allclose(cut_labels.sum(axis=1), 1.0)
    with pytest.raises(RuntimeError, match="MixUpBatch.*rank 4"):
        V.MixUpBatch()(IMG, labels)


def test_normalize_pad_and_five_crop_numpy():
    padded = V.NormalizePad([1, 2, 3], [1, 1, 1])(IMG)
    assert padded.shape == (13, 17, 4) and padded.dtype == np.float32
    # MindSpore 2.10's layout: the normalized <H,W,C> values as one flat run, then H*W zeros
    flat = (IMG.astype(np.float32) - np.array([1, 2, 3], np.float32)).ravel()
    assert np.array_equal(padded.ravel(), np.concatenate([flat, np.zeros(13 * 17, np.float32)]))
    crops = V.FiveCrop(5)(IMG)
    assert len(crops) == 5 and np.array_equal(crops[0], IMG[:5, :5]) and np.array_equal(crops[3], IMG[-5:, -5:])
    assert len(V.TenCrop(5)(IMG)) == 10


def test_normalize_accepts_legacy_chw_after_totensor():
    tensor = V.ToTensor()(IMG)
    np.testing.assert_allclose(V.Normalize([0.5, 0.4, 0.3], [0.2, 0.2, 0.2])(tensor),
                               (tensor - np.array([0.5, 0.4, 0.3]).reshape(3, 1, 1)) / 0.2, rtol=1e-5, atol=1e-6)


def test_transforms_pickle_for_process_workers():
    import pickle

    ops = [V.Resize(4), V.RandomCrop(3, padding=1), V.Normalize([1, 2, 3], [1, 1, 1]), V.RandomAdjustSharpness(2.0),
           V.RandomColorAdjust(0.4), V.AutoAugment(), V.RandomSelectSubpolicy([[(V.Invert(), 0.5)]]),
           T.TypeCast(ms.int32), T.Compose([V.HWC2CHW()]), V.GaussianBlur(3), T.Mask(T.Relational.EQ, 1)]
    for op in ops:
        clone = pickle.loads(pickle.dumps(op))
        assert type(clone) is type(op)


BOX_IMAGE = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
BOXES = np.array([[1, 0, 2, 3, 7], [0, 1, 6, 2, 9]], np.float32)  # [x, y, w, h, label]


@pytest.mark.parametrize("op,want", [
    (V.RandomHorizontalFlipWithBBox(1.0), [[3, 0, 2, 3, 7], [0, 1, 6, 2, 9]]),
    (V.RandomVerticalFlipWithBBox(1.0), [[1, 1, 2, 3, 7], [0, 1, 6, 2, 9]]),
    (V.ResizeWithBBox((8, 3)), [[0.5, 0, 1, 6, 7], [0, 2, 3, 4, 9]]),
    (V.ResizeWithBBox(2), [[0.5, 0, 1, 1.5, 7], [0, 0.5, 3, 1, 9]]),
    (V.RandomResizeWithBBox(8), [[2, 0, 4, 6, 7], [0, 2, 12, 4, 9]]),
    (V.RandomCropWithBBox((6, 8), padding=1), [[2, 1, 2, 3, 7], [1, 2, 6, 2, 9]]),
], ids=lambda x: type(x).__name__ if not isinstance(x, list) else "")
def test_bbox_transforms_match_mindspore(op, want):
    # Expected boxes recorded from MindSpore 2.10 in eager mode.
    image, boxes = op(BOX_IMAGE, BOXES)
    np.testing.assert_allclose(boxes, want)
    assert boxes.dtype == np.float32 and image.dtype == np.uint8
    np.testing.assert_array_equal(BOXES[0], [1, 0, 2, 3, 7])  # the input is not modified


def test_bbox_crop_clips_boxes_to_the_window(rng):
    for _ in range(10):
        crop, boxes = V.RandomCropWithBBox((2, 3))(BOX_IMAGE, BOXES)
        y, x = divmod(int(crop[0, 0, 0]) // 3, 6)
        np.testing.assert_array_equal(crop, BOX_IMAGE[y:y + 2, x:x + 3])
        assert (boxes[:, 0] >= 0).all() and (boxes[:, 0] + boxes[:, 2] <= 3).all()
        assert (boxes[:, 1] >= 0).all() and (boxes[:, 1] + boxes[:, 3] <= 2).all()
    out, boxes = V.RandomResizedCropWithBBox((4, 6), scale=(1, 1), ratio=(1.5, 1.5))(BOX_IMAGE, BOXES)
    np.testing.assert_array_equal(out, BOX_IMAGE)
    np.testing.assert_allclose(boxes, BOXES)
    flipped, _ = V.BoundingBoxAugment(V.HorizontalFlip(), 1.0)(BOX_IMAGE, BOXES[:1])
    np.testing.assert_array_equal(flipped[0:3, 1:3], BOX_IMAGE[0:3, 1:3][:, ::-1])
    with pytest.raises(RuntimeError, match="out of bounds"):
        V.RandomHorizontalFlipWithBBox()(BOX_IMAGE, np.array([[5, 0, 3, 3]], np.float32))
    with pytest.raises(RuntimeError, match="at least 4 features"):
        V.RandomHorizontalFlipWithBBox()(BOX_IMAGE, np.array([[0, 0, 3]], np.float32))


def test_normalize_pad_layout_as_recorded_eager_and_in_a_pipeline():
    # Recorded on MindSpore 2.10 (CPU): <H,W,C> keeps the normalized values as one flat run and puts
    # the zeros after it; <C,H,W> appends a zero plane. A pipeline's batched map gives the same.
    images = np.arange(36).reshape(2, 3, 2, 3).astype(np.uint8)
    mean, std = [1.0, 2.0, 3.0], [2.0, 4.0, 8.0]
    hwc_first = [-0.5, -0.25, -0.125, 1.0, 0.5, 0.25, 2.5, 1.25, 0.625, 4.0, 2.0, 1.0, 5.5, 2.75, 1.375,
                 7.0, 3.5, 1.75] + [0.0] * 6
    chw_first = [-0.5, 1.0, 2.5, 4.0, 5.5, 7.0, -0.25, 0.5, 1.25, 2.0, 2.75, 3.5, -0.125, 0.25, 0.625,
                 1.0, 1.375, 1.75] + [0.0] * 6
    for is_hwc, data, shape, first in ((True, images, (3, 2, 4), hwc_first),
                                       (False, images.transpose(0, 3, 1, 2).copy(), (4, 3, 2), chw_first)):
        op = V.NormalizePad(mean=mean, std=std, dtype="float16", is_hwc=is_hwc)
        assert op(data[0]).ravel().tolist() == first
        pipeline = ds.NumpySlicesDataset(data, ["image"], shuffle=False).map(operations=[op], input_columns=["image"])
        rows = [row["image"] for row in pipeline.create_dict_iterator(num_epochs=1, output_numpy=True)]
        assert [(row.shape, row.dtype) for row in rows] == [(shape, np.float16)] * 2
        assert rows[0].ravel().tolist() == first
    gray = V.NormalizePad(mean=[1.0], std=[2.0])(np.arange(6).reshape(2, 3).astype(np.uint8))
    assert gray.tolist() == [[[-0.5, 0.0], [0.5, 1.0], [1.5, 2.0]], [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]]


@pytest.mark.parametrize("setting, expected", [
    ((0.8, 1.0), [12, 17, 26, 39, 79, 152, 210, 255]),
    ((2.2, 1.0), [0, 0, 0, 1, 10, 62, 150, 255]),
    ((0.3, 1.1), [91, 103, 120, 140, 181, 232, 255, 255]),
    ((1.5, 0.5), [0, 0, 1, 3, 14, 48, 88, 127]),
])
def test_adjust_gamma_uint8_table_matches_mindspore(setting, expected):
    # recorded from MindSpore 2.10: AdjustGamma(gamma, gain) on uint8 pixel values [6, 9, 15, 25, 59, 134, 200, 255]
    pixels = np.array([6, 9, 15, 25, 59, 134, 200, 255], np.uint8).reshape(2, 4, 1)
    assert V.AdjustGamma(*setting)(pixels).reshape(-1).tolist() == expected
