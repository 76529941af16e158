"""Converters of MNIST (gzip IDX files) and CIFAR-100 (Python pickles) to MindRecord
(``mindspore.mindrecord.MnistToMR`` / ``Cifar100ToMR``): the schemas, descriptions, index
fields and file names MindSpore's converters write, images JPEG-encoded (with Pillow here, so
the JPEG bytes differ from MindSpore's OpenCV ones while the images decode alike).
"""
import gzip
import os

import numpy as np

from sporax.mindrecord.converters import _BATCH_ROWS, _jpeg, _load_cifar_batch, _partitions
from sporax.mindrecord.errors import PathNotExistsError
from sporax.mindrecord.writer import SUCCESS, FileWriter, check_file_name


def _read_gzip_idx(path, rank):
    with gzip.open(path, "rb") as handle:
        data = handle.read()
    if len(data) < 4 + 4 * rank or data[2] != 0x08 or data[3] != rank:
        raise RuntimeError(f"MnistToMR: {path} is not a gzip IDX file of {rank}-d unsigned bytes.")
    shape = np.frombuffer(data, ">u4", rank, 4).astype(int)
    return np.frombuffer(data, np.uint8, offset=4 + 4 * rank).reshape(shape)


class MnistToMR:
    """Convert MNIST's four gzip IDX files to ``<destination>_train.mindrecord`` and
    ``<destination>_test.mindrecord``: rows {"label": int64, "data": JPEG bytes}, index field
    label, 256 rows per write.

    Args:
        source (str): The folder holding train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,
            t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz.
        destination (str): The MindRecord path prefix.
        partition_number (int, optional): Shards per output set. Default 1.

    Examples:
        >>> from sporax.mindrecord import MnistToMR
        >>> MnistToMR("/data/mnist", "/data/mnist").transform()  # doctest: +SKIP
    """

    _files = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
              "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}

    def __init__(self, source, destination, partition_number=1):
        check_file_name(source)
        for images, labels in self._files.values():
            for name in (images, labels):
                check_file_name(os.path.join(source, name))
        check_file_name(destination)
        self.source, self.destination = source, destination
        self.partition_number = _partitions(partition_number)

    def run(self):
        for split, (images, labels) in self._files.items():
            pixels = _read_gzip_idx(os.path.join(self.source, images), 3)
            digits = _read_gzip_idx(os.path.join(self.source, labels), 1).astype(np.int64)
            writer = FileWriter(f"{self.destination}_{split}.mindrecord", self.partition_number)
            writer.set_header_size(1 << 24)
            writer.set_page_size(1 << 26)
            writer.add_schema({"label": {"type": "int64"}, "data": {"type": "bytes"}},
                              "mnist_schema")
            writer.add_index(["label"])
            for start in range(0, len(digits), _BATCH_ROWS):
                writer.write_raw_data([{"label": int(label), "data": _jpeg(image)} for image, label
                                       in zip(pixels[start:start + _BATCH_ROWS],
                                              digits[start:start + _BATCH_ROWS])])
            writer.commit()
        return SUCCESS

    def transform(self):
        """Write the train and test MindRecord sets."""
        return self.run()


class Cifar100ToMR:
    """Convert the CIFAR-100 Python version (``train`` and ``test`` pickles) to ``destination``
    (train) and ``destination + "_test"``: rows {"id", "fine_label", "coarse_label": int64,
    "data": JPEG bytes}.

    Args:
        source (str): The cifar-100-python folder holding train and test.
        destination (str): The MindRecord file of the train set.

    Examples:
        >>> from sporax.mindrecord import Cifar100ToMR
        >>> Cifar100ToMR("/data/cifar-100-python", "/data/cifar100.mindrecord").transform()  # doctest: +SKIP
    """

    def __init__(self, source, destination):
        check_file_name(source)
        files = os.listdir(source)
        for name in ("train", "test"):
            if name not in files:
                raise PathNotExistsError(name)
        check_file_name(destination)
        self.source, self.destination = source, destination

    def run(self, fields=None):
        if fields and not isinstance(fields, list):
            raise ValueError("The parameter fields should be None or list")
        for name, target, desc in (("train", self.destination, "img_train"),
                                   ("test", self.destination + "_test", "img_test")):
            images, (fine, coarse) = _load_cifar_batch(os.path.join(self.source, name),
                                                       (b"fine_labels", b"coarse_labels"))
            writer = FileWriter(target, 1)
            writer.add_schema({"id": {"type": "int64"}, "fine_label": {"type": "int64"},
                               "coarse_label": {"type": "int64"}, "data": {"type": "bytes"}},
                              desc)
            if fields:
                writer.add_index(fields)
            writer.write_raw_data([{"id": i, "data": _jpeg(image), "fine_label": int(f),
                                    "coarse_label": int(c)}
                                   for i, (image, f, c) in enumerate(zip(images, fine, coarse))])
            writer.commit()
        return SUCCESS

    def transform(self, fields=None):
        """Write the train and test MindRecord files (``fields``: index fields)."""
        return self.run(fields)
