"""``mindspore.dataset.vision``: image transforms on NumPy <H,W,C> arrays and PIL images.

NumPy images follow MindSpore's (OpenCV's) conventions; PIL images are processed with Pillow and
returned as PIL images, as in MindSpore.
"""
from sporax.dataset.vision.augment import (CutOut, Erase, RandomAdjustSharpness, RandomAutoContrast, RandomColor,
                                           RandomEqualize, RandomErasing, RandomInvert, RandomLighting,
                                           RandomPosterize, RandomSelectSubpolicy, RandomSharpness, RandomSolarize,
                                           UniformAugment)
from sporax.dataset.vision.bbox import (BoundingBoxAugment, RandomCropWithBBox, RandomHorizontalFlipWithBBox,
                                        RandomResizedCropWithBBox, RandomResizeWithBBox, RandomVerticalFlipWithBBox,
                                        ResizeWithBBox)
from sporax.dataset.vision.color import (AdjustBrightness, AdjustContrast, AdjustGamma, AdjustHue, AdjustSaturation,
                                         AdjustSharpness, AutoContrast, ConvertColor, Equalize, Grayscale, Invert,
                                         Posterize, RandomColorAdjust, RandomGrayscale, Solarize)
from sporax.dataset.vision.decode import (Decode, encode_jpeg, encode_png, get_image_num_channels, get_image_size,
                                          read_file, read_image, write_file, write_jpeg, write_png)
from sporax.dataset.vision.batch_mixing import CutMixBatch, MixUpBatch
from sporax.dataset.vision.blur import GaussianBlur
from sporax.dataset.vision.color import HsvToRgb, RgbToHsv
from sporax.dataset.vision.geometry import Affine, FiveCrop, Perspective, TenCrop
from sporax.dataset.vision.random_geometry import RandomAffine, RandomPerspective
from sporax.dataset.vision.tensor_ops import LinearTransformation
from sporax.dataset.vision.geometry import (CenterCrop, Crop, HorizontalFlip, Pad, PadToSize, ResizedCrop, Resize,
                                            Rotate, SlicePatches, VerticalFlip)
from sporax.dataset.vision.policy import AutoAugment, RandAugment, TrivialAugmentWide
from sporax.dataset.vision.random_geometry import (RandomCrop, RandomCropDecodeResize, RandomHorizontalFlip,
                                                   RandomResize, RandomResizedCrop, RandomRotation,
                                                   RandomVerticalFlip)
from sporax.dataset.vision.tensor_ops import (HWC2CHW, Normalize, NormalizePad, Rescale, ToNumpy, ToPIL, ToTensor,
                                              ToType)
from sporax.dataset.vision.utils import (AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat, ImageReadMode,
                                         Inter, SliceMode)
from sporax.dataset.vision.utils import not_random

__all__ = [
    "Affine", "CutMixBatch", "FiveCrop", "GaussianBlur", "HsvToRgb", "LinearTransformation", "MixUpBatch",
    "Perspective", "RandomAffine", "RandomPerspective", "RgbToHsv", "TenCrop", "AutoAugment", "RandAugment",
    "TrivialAugmentWide", "BoundingBoxAugment", "RandomCropWithBBox", "RandomHorizontalFlipWithBBox",
    "RandomResizedCropWithBBox", "RandomResizeWithBBox", "RandomVerticalFlipWithBBox", "ResizeWithBBox",
    "AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue", "AdjustSaturation", "AdjustSharpness",
    "AutoAugmentPolicy", "AutoContrast", "Border", "CenterCrop", "ConvertColor", "ConvertMode", "Crop", "CutOut",
    "Decode", "Equalize", "Erase", "Grayscale", "HWC2CHW", "HorizontalFlip", "ImageBatchFormat", "ImageReadMode",
    "Inter", "Invert", "Normalize", "NormalizePad", "Pad", "PadToSize", "Posterize", "RandomAdjustSharpness",
    "RandomAutoContrast", "RandomColor", "RandomColorAdjust", "RandomCrop", "RandomCropDecodeResize",
    "RandomEqualize", "RandomErasing", "RandomGrayscale", "RandomHorizontalFlip", "RandomInvert", "RandomLighting",
    "RandomPosterize", "RandomResize", "RandomResizedCrop", "RandomRotation", "RandomSelectSubpolicy",
    "RandomSharpness", "RandomSolarize", "RandomVerticalFlip", "Rescale", "Resize", "ResizedCrop", "Rotate",
    "SlicePatches", "Solarize", "ToNumpy", "ToPIL", "ToTensor", "ToType", "UniformAugment", "VerticalFlip",
    "encode_jpeg", "encode_png", "get_image_num_channels", "get_image_size", "not_random", "read_file", "read_image",
    "write_file", "write_jpeg", "write_png",
]
from sporax.dataset.vision.mixup import MixUp  # noqa: E402
from sporax.dataset.vision.video import (DecodeVideo, VideoDecoder, read_video,  # noqa: E402
                                         read_video_timestamps)
__all__ += ["MixUp", "DecodeVideo", "VideoDecoder", "read_video", "read_video_timestamps"]
