"""Transform cases evaluated both by MindSpore 2.10 (recorded once into
``tests/fixtures/dataset/transforms_oracle.npz`` by ``tests/fixtures/dataset/record_transforms_oracle.py``)
and by sporax in ``test_vision.py``/``test_transforms.py``.

Each case is (name, expression, atol, fraction): the expression is evaluated with ``V`` (vision),
``T`` (transforms), ``ms`` (dtypes), ``np``, ``Image`` and the inputs of ``make_inputs``; sporax must
match the recorded output within ``atol`` on all but ``fraction`` of the elements (0 = all).
"""
import io

import numpy as np


def make_inputs():
    """The input arrays every case may use (also stored in the fixture)."""
    rng = np.random.default_rng(0)
    from PIL import Image
    small = np.arange(48, dtype=np.uint8).reshape(4, 4, 3)
    buffer = io.BytesIO()
    Image.fromarray(small * 5).save(buffer, format="PNG")
    return {
        "img": rng.integers(0, 256, (13, 17, 3), dtype=np.uint8),
        "imgf": rng.random((13, 17, 3)).astype(np.float32),
        "gray": rng.integers(0, 256, (13, 17), dtype=np.uint8),
        "small": small,
        "png": np.frombuffer(buffer.getvalue(), dtype=np.uint8),
        "labels": np.array([0, 3, 1, 4], dtype=np.int32),
        "ints": np.array([3, 1, 3, 2, 1, 5], dtype=np.int64),
    }


RESIZE_MODES = ["NEAREST", "BILINEAR", "BICUBIC", "AREA"]
RESIZE_SIZES = [(5, 7), (26, 30), (9, 40), 6, (64, 64), (100, 3), (1, 1)]

CASES = []
for _mode in RESIZE_MODES:
    for _size in RESIZE_SIZES:
        for _src in ("img", "imgf", "gray"):
            CASES.append((f"resize_{_mode}_{_size}_{_src}", f"V.Resize({_size!r}, V.Inter.{_mode})({_src})",
                          1e-4 if _src == "imgf" else 1 if _mode == "BICUBIC" else 0,
                          0.005 if _mode == "BICUBIC" and _src != "imgf" else 0.0))
CASES += [
    ("resize_PILCUBIC_down", "V.Resize((5, 7), V.Inter.PILCUBIC)(img)", 1, 0.0),
    ("resize_PILCUBIC_up", "V.Resize((26, 30), V.Inter.PILCUBIC)(img)", 1, 0.0),
    ("resize_pil_bilinear", "np.asarray(V.Resize((5, 7))(Image.fromarray(img)))", 0, 0.0),
    ("resize_pil_antialias", "np.asarray(V.Resize((5, 7), V.Inter.ANTIALIAS)(Image.fromarray(img)))", 0, 0.0),
]
for _deg in (30, -75, 90, 180):
    for _mode in ("NEAREST", "BILINEAR"):
        for _expand in (False, True):
            for _center in (None, (3, 4)):
                _name = f"rotate_{_deg}_{_mode}_{int(_expand)}_{_center is not None}"
                _expr = f"V.RandomRotation(({_deg}, {_deg}), V.Inter.{_mode}, {_expand}, {_center!r})"
                CASES.append((_name + "_f", _expr + "(imgf)", 0.02, 0.02))
                CASES.append((_name + "_u8", _expr + "(img)", 2, 0.02))
CASES += [
    ("centercrop", "V.CenterCrop(2)(small)", 0, 0.0),
    ("centercrop_odd", "V.CenterCrop((3, 2))(small)", 0, 0.0),
    ("centercrop_big", "V.CenterCrop((7, 6))(small)", 0, 0.0),
    ("centercrop_pil", "np.asarray(V.CenterCrop((3, 2))(Image.fromarray(small)))", 0, 0.0),
    ("crop", "V.Crop((1, 2), (2, 1))(small)", 0, 0.0),
    ("pad_int", "V.Pad(1)(small)", 0, 0.0),
    ("pad_two", "V.Pad((1, 2))(gray)", 0, 0.0),
    ("pad_four_fill", "V.Pad((1, 2, 3, 0), fill_value=(7, 8, 9))(small)", 0, 0.0),
    ("pad_edge", "V.Pad(2, padding_mode=V.Border.EDGE)(img)", 0, 0.0),
    ("pad_reflect", "V.Pad(2, padding_mode=V.Border.REFLECT)(img)", 0, 0.0),
    ("pad_symmetric", "V.Pad((1, 3), padding_mode=V.Border.SYMMETRIC)(img)", 0, 0.0),
    ("pad_float", "V.Pad(1, fill_value=3)(imgf)", 0, 0.0),
    ("pad_pil", "np.asarray(V.Pad(1, fill_value=5)(Image.fromarray(small)))", 0, 0.0),
    ("rescale_u8", "V.Rescale(1.0 / 255.0, -0.5)(img)", 1e-7, 0.0),
    ("rescale_f64", "V.Rescale(2, 1)(imgf.astype(np.float64))", 0, 0.0),
    ("normalize_hwc", "V.Normalize([121.0, 115.5, 100.25], [70.0, 68.5, 71.0])(img)", 1e-6, 0.0),
    ("normalize_chw", "V.Normalize([1, 2, 3], [2, 2, 2], is_hwc=False)(img.transpose(2, 0, 1).copy())", 1e-6, 0.0),
    ("normalize_gray", "V.Normalize([1], [2])(gray)", 1e-6, 0.0),
    ("normalize_one_mean", "V.Normalize([1], [2])(img)", 1e-6, 0.0),
    ("normalize_float", "V.Normalize([0.5, 0.4, 0.3], [0.2, 0.25, 0.3])(imgf)", 1e-6, 0.0),
    ("hwc2chw", "V.HWC2CHW()(img)", 0, 0.0),
    ("hwc2chw_gray", "V.HWC2CHW()(gray)", 0, 0.0),
    ("totensor", "V.ToTensor()(img)", 1e-7, 0.0),
    ("totensor_gray", "V.ToTensor()(gray)", 1e-7, 0.0),
    ("totensor_f64", "V.ToTensor(np.float64)(img)", 1e-7, 0.0),
    ("totensor_pil", "V.ToTensor()(Image.fromarray(img))", 1e-7, 0.0),
    ("hflip", "V.RandomHorizontalFlip(1.0)(img)", 0, 0.0),
    ("vflip", "V.RandomVerticalFlip(1.0)(img)", 0, 0.0),
    ("noflip", "V.RandomHorizontalFlip(0.0)(img)", 0, 0.0),
    ("hflip_pil", "np.asarray(V.RandomHorizontalFlip(1.0)(Image.fromarray(img)))", 0, 0.0),
    ("horizontalflip", "V.HorizontalFlip()(gray)", 0, 0.0),
    ("verticalflip", "V.VerticalFlip()(imgf)", 0, 0.0),
    ("invert", "V.Invert()(img)", 0, 0.0),
    ("equalize", "V.Equalize()(img)", 0, 0.0),
    ("equalize_small", "V.Equalize()(small)", 0, 0.0),
    ("autocontrast", "V.AutoContrast()(small)", 0, 0.0),
    ("autocontrast_cutoff", "V.AutoContrast(10, [3])(small)", 0, 0.0),
    ("autocontrast_img", "V.AutoContrast(5)(img)", 0, 0.0),
    ("brightness", "V.RandomColorAdjust(brightness=(1.5, 1.5))(img)", 0, 0.0),
    ("brightness_float", "V.RandomColorAdjust(brightness=(1.5, 1.5))(imgf)", 1e-6, 0.0),
    ("saturation", "V.RandomColorAdjust(saturation=(1.5, 1.5))(img)", 1, 0.0),
    ("hue", "V.RandomColorAdjust(hue=(0.2, 0.2))(img)", 2, 0.1),
    ("contrast", "V.RandomColorAdjust(contrast=(1.5, 1.5))(img)", 1, 0.0),
    ("grayscale_pil", "np.asarray(V.Grayscale()(Image.fromarray(img)))", 0, 0.0),
    ("grayscale3_pil", "np.asarray(V.Grayscale(3)(Image.fromarray(img)))", 0, 0.0),
    ("sharpness", "V.RandomSharpness((1.5, 1.5))(img)", 1, 0.0),
    ("slicepatches", "np.stack(V.SlicePatches(2, 3)(img))", 0, 0.0),
    ("slicepatches_drop", "np.stack(V.SlicePatches(3, 3, V.SliceMode.DROP)(img))", 0, 0.0),
    ("decode", "V.Decode()(png)", 0, 0.0),
    ("decode_pil", "np.asarray(V.Decode(True)(png))", 0, 0.0),
    ("topil_roundtrip", "np.asarray(V.ToPIL()(img))", 0, 0.0),
    ("typecast_ms", "T.TypeCast(ms.int32)(np.array([1.7, 2.2, -3.9]))", 0, 0.0),
    ("typecast_np", "T.TypeCast(np.int16)(np.array([1.7, 2.2]))", 0, 0.0),
    ("typecast_f16", "T.TypeCast(ms.float16)(np.array([1, 2]))", 0, 0.0),
    ("typecast_bool", "T.TypeCast(ms.bool_)(np.array([1, 0]))", 0, 0.0),
    ("onehot", "T.OneHot(5)(labels)", 0, 0.0),
    ("onehot_scalar", "T.OneHot(5)(np.array(2))", 0, 0.0),
    ("onehot_smooth", "T.OneHot(5, 0.1)(np.array(2))", 1e-12, 0.0),
    ("onehot_negative", "T.OneHot(3)(np.array([-1]))", 0, 0.0),
    ("fill_float", "T.Fill(3)(np.array([1.5, 2.5]))", 0, 0.0),
    ("fill_int", "T.Fill(3.5)(np.array([1, 2]))", 0, 0.0),
    ("fill_wrap", "T.Fill(300)(np.zeros((2, 2), np.uint8))", 0, 0.0),
    ("concatenate", "T.Concatenate(0, np.array([1, 2]), np.array([9]))(np.array([5, 6]))", 0, 0.0),
    ("duplicate", "np.stack(T.Duplicate()(np.array([5, 6])))", 0, 0.0),
    ("mask_gt", "T.Mask(T.Relational.GT, 2)(np.array([1, 2, 3]))", 0, 0.0),
    ("mask_eq_int32", "T.Mask(T.Relational.EQ, 2, ms.int32)(np.array([1, 2, 3]))", 0, 0.0),
    ("mask_lt_float_const", "T.Mask(T.Relational.LT, 1.5)(np.array([1, 2]))", 0, 0.0),
    ("padend", "T.PadEnd([4])(np.array([1, 2]))", 0, 0.0),
    ("padend_value", "T.PadEnd([2, 3], -1)(np.array([[1, 2]]))", 0, 0.0),
    ("padend_truncate", "T.PadEnd([1])(np.array([1, 2]))", 0, 0.0),
    ("padend_cast", "T.PadEnd([3], 1.5)(np.ones((2,), np.int32))", 0, 0.0),
    ("slice_slice", "T.Slice(slice(0, 2))(ints)", 0, 0.0),
    ("slice_int", "T.Slice(1)(ints)", 0, 0.0),
    ("slice_neg", "T.Slice(-1)(ints)", 0, 0.0),
    ("slice_list", "T.Slice([0, 2])(ints)", 0, 0.0),
    ("slice_2d", "T.Slice([0, 2], [0, 1])(np.arange(9).reshape(3, 3))", 0, 0.0),
    ("slice_ellipsis", "T.Slice(Ellipsis, 1)(np.arange(9).reshape(3, 3))", 0, 0.0),
    ("unique", "np.concatenate(T.Unique()(ints.reshape(2, 3)))", 0, 0.0),
    ("compose", "T.Compose([V.Rescale(2, 0), V.HWC2CHW()])(small)", 0, 0.0),
]
CASES += [
    ("affine_all", "V.Affine(20, [0.1, -0.2], 0.8, [5, 7])(imgf)", 1e-4, 0.0),
    ("affine_bilinear_u8", "V.Affine(-35, [0.05, 0.1], 1.2, [3, -4], V.Inter.BILINEAR, 9)(img)", 0, 0.0),
    ("perspective", "V.Perspective([[0, 0], [16, 0], [16, 12], [0, 12]], [[1, 0], [15, 2], [16, 12], [2, 11]])(imgf)",
     1e-4, 0.0),
    ("gaussianblur", "V.GaussianBlur(3)(img)", 1, 0.0),
    ("gaussianblur_sigma", "V.GaussianBlur((3, 5), (1.0, 2.0))(img)", 1, 0.0),
    ("gaussianblur_float", "V.GaussianBlur(5, 1.5)(imgf)", 1e-5, 0.0),
    ("rgbtohsv_chw", "V.RgbToHsv()(imgf.transpose(2, 0, 1))", 1e-6, 0.0),
    ("rgbtohsv_hwc", "V.RgbToHsv(True)(imgf)", 1e-6, 0.0),
    ("hsvtorgb", "V.HsvToRgb(True)(V.RgbToHsv(True)(imgf))", 1e-6, 0.0),
    ("fivecrop", "np.stack([np.asarray(x) for x in V.FiveCrop(5)(Image.fromarray(img))])", 0, 0.0),
    ("tencrop", "np.stack([np.asarray(x) for x in V.TenCrop((5, 7), True)(Image.fromarray(img))])", 0, 0.0),
    ("linear_transformation", "V.LinearTransformation(np.eye(12) * 2, np.ones(12))(np.arange(12.0).reshape(2, 2, 3))",
     1e-9, 0.0),
]
