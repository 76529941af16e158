"""Transforms in MindSpore's pipeline JSON: ``{"tensor_op_name": ..., "tensor_op_params": ...}``.

Each row of ``_TABLE`` names the JSON operation, the sporax class, how to read its parameters
from a transform object and how to rebuild the transform from them. Enumerations are written
with the integer codes MindSpore's C++ layer uses (``Inter``: BILINEAR 0, NEAREST 1, BICUBIC 2,
AREA 3, PILCUBIC 4; ``Border``: CONSTANT 0, EDGE 1, REFLECT 2, SYMMETRIC 3).
"""
import logging

import numpy as np

from sporax.dataset import transforms, vision
from sporax.dataset.transforms.generic import to_numpy_dtype

_INTER = ("BILINEAR", "NEAREST", "BICUBIC", "AREA", "PILCUBIC")
_BORDER = ("CONSTANT", "EDGE", "REFLECT", "SYMMETRIC")


def _code(member, names, what):
    if member.name not in names:
        raise NotImplementedError(f"serialize: {what}.{member.name} has no code in MindSpore's "
                                  "pipeline JSON.")
    return names.index(member.name)


def _inter(code):
    return getattr(vision.Inter, _INTER[code])


def _border(code):
    return getattr(vision.Border, _BORDER[code])


def _pair(size):
    return [size, size] if isinstance(size, int) else list(size)


def _size(size):
    """JSON ``size`` list -> the transform's argument (one number: the shorter side)."""
    return size[0] if len(size) == 1 else tuple(size)


def _fill(value):
    return [value] * 3 if isinstance(value, int) else list(value)


def _dtype(value):
    """A MindSpore type or NumPy dtype as the dtype name MindSpore's JSON holds ('int32')."""
    return to_numpy_dtype("serialize", value).name


def _float32(value):
    # MindSpore stores float parameters as C float; write them as it does so JSON compares equal.
    return float(np.float32(value))


def _floats(values):
    return [_float32(value) for value in values]


_TABLE = {
    "Decode": ("vision", "Decode", lambda op: {"device_target": "CPU", "rgb": True},
               lambda p: vision.Decode()),
    "Resize": ("vision", "Resize",
               lambda op: {"device_target": "CPU",
                           "interpolation": _code(op.interpolation, _INTER, "Inter"),
                           "size": [op.size] if isinstance(op.size, int) else list(op.size)},
               lambda p: vision.Resize(_size(p["size"]), _inter(p["interpolation"]))),
    "CenterCrop": ("vision", "CenterCrop", lambda op: {"size": _pair(op.size)},
                   lambda p: vision.CenterCrop(_size(p["size"]))),
    "RandomCrop": ("vision", "RandomCrop",
                   lambda op: {"fill_value": _fill(op.fill_value), "pad_if_needed": op.pad_if_needed,
                               "padding": list(op.padding or (0, 0, 0, 0)),
                               "padding_mode": _code(op.padding_mode, _BORDER, "Border"),
                               "size": _pair(op.size)},
                   lambda p: vision.RandomCrop(tuple(p["size"]), tuple(p["padding"]),
                                                  p["pad_if_needed"], tuple(p["fill_value"]),
                                                  _border(p["padding_mode"]))),
    "RandomHorizontalFlip": ("vision", "RandomHorizontalFlip", lambda op: {"prob": _float32(op.prob)},
                             lambda p: vision.RandomHorizontalFlip(p["prob"])),
    "RandomVerticalFlip": ("vision", "RandomVerticalFlip", lambda op: {"prob": _float32(op.prob)},
                           lambda p: vision.RandomVerticalFlip(p["prob"])),
    "Normalize": ("vision", "Normalize",
                  lambda op: {"device_target": "CPU", "is_hwc": op.is_hwc, "mean": _floats(op.mean),
                              "std": _floats(op.std)},
                  lambda p: vision.Normalize(p["mean"], p["std"], p["is_hwc"])),
    "HwcToChw": ("vision", "HWC2CHW", lambda op: None, lambda p: vision.HWC2CHW()),
    "Rescale": ("vision", "Rescale",
                lambda op: {"rescale": _float32(op.rescale), "shift": _float32(op.shift)},
                lambda p: vision.Rescale(p["rescale"], p["shift"])),
    "RandomResizedCrop": ("vision", "RandomResizedCrop",
                          lambda op: {"interpolation": _code(op.interpolation, _INTER, "Inter"),
                                      "max_attempts": op.max_attempts, "ratio": _floats(op.ratio),
                                      "scale": _floats(op.scale), "size": _pair(op.size)},
                          lambda p: vision.RandomResizedCrop(
                              _size(p["size"]), tuple(p["scale"]), tuple(p["ratio"]),
                              _inter(p["interpolation"]), p["max_attempts"])),
    "Pad": ("vision", "Pad",
            lambda op: {"device_target": "CPU", "fill_value": _fill(op.fill_value),
                        "padding": list(op.padding),
                        "padding_mode": _code(op.padding_mode, _BORDER, "Border")},
            lambda p: vision.Pad(tuple(p["padding"]), tuple(p["fill_value"]),
                                    _border(p["padding_mode"]))),
    "ToTensor": ("vision", "ToTensor", lambda op: {"output_type": _dtype(op.output_type)},
                 lambda p: vision.ToTensor(np.dtype(p["output_type"]))),
    "RandomColorAdjust": ("vision", "RandomColorAdjust",
                          lambda op: {key: _floats(getattr(op, key)) for key in
                                      ("brightness", "contrast", "hue", "saturation")},
                          lambda p: vision.RandomColorAdjust(
                              tuple(p["brightness"]), tuple(p["contrast"]),
                              tuple(p["saturation"]), tuple(p["hue"]))),
    "RandomRotation": ("vision", "RandomRotation",
                       lambda op: {"center": list(op.center or ()), "degrees": _floats(op.degrees),
                                   "expand": op.expand, "fill_value": _fill(op.fill_value),
                                   "resample": _code(op.resample, _INTER, "Inter")},
                       lambda p: vision.RandomRotation(
                           tuple(p["degrees"]), _inter(p["resample"]), p["expand"],
                           tuple(p["center"]) or None, tuple(p["fill_value"]))),
    "CutOut": ("vision", "CutOut",
               lambda op: {"is_hwc": op.is_hwc, "length": op.length, "num_patches": op.num_patches},
               lambda p: vision.CutOut(p["length"], p["num_patches"], p["is_hwc"])),
    "TypeCast": ("transforms", "TypeCast", lambda op: {"data_type": _dtype(op.data_type)},
                 lambda p: transforms.TypeCast(np.dtype(p["data_type"]))),
    "OneHot": ("transforms", "OneHot",
               lambda op: {"num_classes": op.num_classes,
                           "smoothing_rate": float(op.smoothing_rate)},  # a double in MindSpore
               lambda p: transforms.OneHot(p["num_classes"], p["smoothing_rate"])),
    "Duplicate": ("transforms", "Duplicate", lambda op: None, lambda p: transforms.Duplicate()),
}
# vision.ToType writes itself as TypeCast, as in MindSpore.
_BY_CLASS = {(package, name): json_name for json_name, (package, name, _, _) in _TABLE.items()}
_BY_CLASS[("vision", "ToType")] = "TypeCast"


def _package(op):
    module = type(op).__module__
    for package in ("vision", "transforms"):
        if module.startswith(f"sporax.dataset.{package}"):
            return package
    return None


def op_to_json(op, identify=False):
    """One transform or Python function as its JSON dict.

    Functions and transforms MindSpore writes as Python objects get ``python_module`` and
    ``tensor_op_name`` only (their code is not in the JSON, so they cannot be rebuilt); with
    ``identify`` they also carry the object's id, so different functions give different JSON.
    """
    json_name = _BY_CLASS.get((_package(op), type(op).__name__))
    if json_name is not None:
        return {"tensor_op_name": json_name, "tensor_op_params": _TABLE[json_name][2](op)}
    name = getattr(op, "__name__", None) or type(op).__name__
    module = getattr(op, "__module__", None) or type(op).__module__
    entry = {"python_module": module, "tensor_op_name": name}
    if identify:
        entry["id"] = id(op)
    else:
        logging.getLogger("sporax.dataset").warning(
            "Serialization of user-defined Python functions is not supported (%s). Any produced "
            "serialized JSON file output for this dataset pipeline is not valid to be "
            "deserialized.", name)
    return entry


def op_from_json(entry):
    """The transform a JSON operation dict describes (RuntimeError naming it if unknown)."""
    name = entry.get("tensor_op_name")
    row = _TABLE.get(name)
    if row is None or "python_module" in entry:
        where = f" (a Python object from module {entry['python_module']}, whose code is not in " \
                "the JSON)" if "python_module" in entry else ""
        raise RuntimeError(f"Invalid data, unsupported operation: {name}{where}. sporax rebuilds "
                           f"these operations: {sorted(_TABLE)}.")
    return row[3](entry.get("tensor_op_params") or {})
