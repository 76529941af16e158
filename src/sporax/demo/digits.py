"""The demo's data: scikit-learn's handwritten digits as MNIST IDX files (28x28, uint8)."""
import os
import struct

import numpy as np

FILES = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}


def _upsample(images):
    """8x8 digits (0..16) -> 28x28 uint8: drawn in a 20x20 box centred with a 4-pixel margin, as MNIST."""
    from PIL import Image

    result = np.zeros((len(images), 28, 28), np.uint8)
    for index, image in enumerate(images):
        small = Image.fromarray((image * (255.0 / 16.0)).astype(np.uint8))
        result[index, 4:24, 4:24] = np.asarray(small.resize((20, 20), Image.BILINEAR))
    return result


def _write_idx(path, array):
    header = struct.pack(">I", 0x0801 if array.ndim == 1 else 0x0803) + b"".join(
        struct.pack(">I", dim) for dim in array.shape)
    temporary = path + ".tmp"
    with open(temporary, "wb") as handle:
        handle.write(header)
        handle.write(np.ascontiguousarray(array, np.uint8).tobytes())
    os.replace(temporary, path)


def write_digits(directory, test_fraction=0.2, seed=0):
    """Write the digits as MNIST IDX files into ``directory`` (once); returns the directory."""
    if all(os.path.exists(os.path.join(directory, name)) for pair in FILES.values() for name in pair):
        return directory
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise ImportError("The demo uses the handwritten digits that scikit-learn ships: "
                          "pip install scikit-learn") from None
    digits = load_digits()
    rng = np.random.default_rng(seed)
    test = np.zeros(len(digits.target), bool)
    for label in range(10):  # a stratified split keeps every class in both parts
        members = np.flatnonzero(digits.target == label)
        test[rng.choice(members, int(round(len(members) * test_fraction)), replace=False)] = True
    images = _upsample(digits.images)
    os.makedirs(directory, exist_ok=True)
    for usage, mask in (("train", ~test), ("test", test)):
        order = rng.permutation(np.flatnonzero(mask))
        image_file, label_file = FILES[usage]
        _write_idx(os.path.join(directory, image_file), images[order])
        _write_idx(os.path.join(directory, label_file), digits.target[order].astype(np.uint8))
    return directory
