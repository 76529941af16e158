"""Small synthetic data sets, in the on-disk formats the model zoo's scripts read, that a model can learn.

Each class has its own mean colour/pattern plus noise, so a few steps of training lower the loss.
"""
import os

import numpy as np
from PIL import Image


def _images(count, size, classes, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, classes, count)
    palette = rng.uniform(30, 225, (classes, 3))
    base = np.empty((count, size, size, 3))
    for index, label in enumerate(labels):
        stripe = np.zeros((size, size, 1))
        stripe[:, (label * size) // classes: ((label + 1) * size) // classes] = 60.0
        base[index] = palette[label] + stripe
    images = np.clip(base + rng.normal(0, 20, base.shape), 0, 255).astype(np.uint8)
    return images, labels.astype(np.uint8)


def write_cifar10_binary(directory, train_count=64, test_count=32, seed=0):
    """CIFAR-10 binary version: data_batch_1.bin and test_batch.bin (1 label byte + 3072 CHW bytes per image)."""
    os.makedirs(directory, exist_ok=True)
    for name, count, offset in (("data_batch_1.bin", train_count, 0), ("test_batch.bin", test_count, 1)):
        images, labels = _images(count, 32, 10, seed + offset)
        records = np.concatenate([labels[:, None], images.transpose(0, 3, 1, 2).reshape(count, -1)], axis=1)
        records.astype(np.uint8).tofile(os.path.join(directory, name))
    return directory


def write_image_folder(directory, classes=4, per_class=8, size=40, seed=0):
    """An ImageFolder tree: <directory>/<class name>/<n>.JPEG."""
    images, labels = _images(classes * per_class, size, classes, seed)
    for index, (image, label) in enumerate(zip(images, labels)):
        folder = os.path.join(directory, f"class_{label:02d}")
        os.makedirs(folder, exist_ok=True)
        Image.fromarray(image).save(os.path.join(folder, f"{index:04d}.JPEG"), quality=95)
    return directory
