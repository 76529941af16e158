"""Small synthetic data sets, in the on-disk formats the model zoo's scripts read, that a model can learn.

Each class has its own mean colour/pattern plus noise, so a few steps of training lower the loss.
"""
import os

import numpy as np
from PIL import Image


def _images(count, size, classes, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, classes, count)
    palette = np.random.default_rng(1234).uniform(30, 225, (classes, 3))  # the same classes in every split
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


def write_imdb_mindrecord(directory, embed_size=16, train_count=64, test_count=32, vocab=40, length=500, seed=0):
    """The LSTM script's preprocessed IMDB: aclImdb_{train,test}.mindrecord0..3 (FileWriter, 4 shards, schema
    id/label/feature[-1]) and weight.txt (the embedding table). Positive reviews use the lower half
    of the vocabulary more often, negative ones the upper half."""
    from sporax.mindrecord import FileWriter
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    np.savetxt(os.path.join(directory, "weight.txt"), rng.normal(0, 1, (vocab, embed_size)).astype(np.float32))
    schema = {"id": {"type": "int32"}, "label": {"type": "int32"}, "feature": {"type": "int32", "shape": [-1]}}
    for name, count in (("aclImdb_train.mindrecord", train_count), ("aclImdb_test.mindrecord", test_count)):
        rows = []
        for index in range(count):
            label = int(rng.integers(0, 2))
            half = vocab // 2
            common = rng.integers(half * label, half * (label + 1), length)
            noise = rng.integers(0, vocab, length)
            feature = np.where(rng.random(length) < 0.6, common, noise).astype(np.int32)
            rows.append({"id": index, "label": label, "feature": feature})
        writer = FileWriter(os.path.join(directory, name), shard_num=4)
        writer.add_schema(schema, "nlp_schema")
        writer.add_index(["id", "label"])
        writer.write_raw_data(rows)
        writer.commit()
    return directory
