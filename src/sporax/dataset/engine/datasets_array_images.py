"""Image datasets stored as arrays rather than image files: EMNIST and QMNIST (IDX files), USPS and
Semeion (text), STL-10 (binary); each column holds the pixels directly."""
import os

import numpy as np

from sporax.dataset.engine.datasets_vision import read_idx
from sporax.dataset.engine.datasets_vision_corpora import _ImageTableDataset
from sporax.dataset.engine.samplers import Shuffle
from sporax.dataset.engine.table_sources import FileCorpusDataset, TableDataset, check_choice, check_dir, read_lines


class _BinaryImageDataset(TableDataset):
    """Pixels read from a binary format into memory (``_arrays``: [images, labels])."""

    def __init__(self, dataset_dir, usage, usages, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None,
                 default="all"):
        where = type(self).__name__
        self.dataset_dir = check_dir(where, dataset_dir)
        self.usage = check_choice(where, "usage", usage, usages, default)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)

    _column_names = _ImageTableDataset._column_names

    def _load_table(self):
        images, labels = self._arrays()
        return [list(images), list(labels)]

    def _read(self, indices):
        images, labels = self._loaded()
        return [np.stack([images[int(i)] for i in indices]) if len(indices) else [],
                [labels[int(i)] for i in indices]]


class EMnistDataset(_BinaryImageDataset):
    """EMNIST (``emnist-<name>-{train,test}-{images-idx3,labels-idx1}-ubyte``): columns image
    ((28, 28, 1) uint8) and label (uint32).

    Args:
        dataset_dir (str): The folder holding the IDX files.
        name (str): The split: 'byclass', 'bymerge', 'balanced', 'letters', 'digits' or 'mnist'.
        usage (str, optional): 'train', 'test' or 'all' (default None: all).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            MnistDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.EMnistDataset("/path/to/emnist", name="letters", usage="train")
    """

    NAMES = ("byclass", "bymerge", "balanced", "letters", "digits", "mnist")

    def __init__(self, dataset_dir, name, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.name = check_choice(type(self).__name__, "name", name, self.NAMES)
        super().__init__(dataset_dir, usage, ["train", "test", "all"], num_samples,
                         num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)

    def _arrays(self):
        images, labels = [], []
        for split in (("test", "train") if self.usage == "all" else (self.usage,)):
            prefix = os.path.join(self.dataset_dir, f"emnist-{self.name}-{split}")
            image_path, label_path = prefix + "-images-idx3-ubyte", prefix + "-labels-idx1-ubyte"
            if not (os.path.isfile(image_path) and os.path.isfile(label_path)):
                continue
            image, label = read_idx(image_path), read_idx(label_path)
            if len(image) != len(label):
                raise RuntimeError(f"{type(self).__name__}: {image_path} has {len(image)} images "
                                   f"but {label_path} has {len(label)} labels.")
            images.append(image[..., None])
            labels.append(label.astype(np.uint32))
        if not images:
            return np.zeros((0, 28, 28, 1), np.uint8), np.zeros(0, np.uint32)
        return np.concatenate(images), np.concatenate(labels)


class QMnistDataset(_BinaryImageDataset):
    """QMNIST (``qmnist-{train,test}-images-idx3-ubyte`` with ``*-labels-idx2-int``, and the
    ``xnist-*`` files for 'nist'): columns image ((28, 28, 1) uint8) and label (uint32: the
    class, or with ``compat=False`` all eight QMNIST label fields).

    Args:
        dataset_dir (str): The folder holding the files.
        usage (str, optional): 'train', 'test', 'test10k', 'test50k', 'nist' or 'all' (default
            None: all).
        compat (bool, optional): True gives the class only (default True).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            MnistDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.QMnistDataset("/path/to/qmnist", usage="test10k", compat=False)
    """

    def __init__(self, dataset_dir, usage=None, compat=True, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        if not isinstance(compat, bool):
            raise TypeError(f"QMnistDataset: compat must be a bool, but got "
                            f"{type(compat).__name__}.")
        self.compat = compat
        super().__init__(dataset_dir, usage,
                         ["train", "test", "test10k", "test50k", "nist", "all"], num_samples,
                         num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)

    def _arrays(self):
        files = {"train": ["qmnist-train"], "test": ["qmnist-test"], "test10k": ["qmnist-test"],
                 "test50k": ["qmnist-test"], "nist": ["xnist"],
                 "all": ["qmnist-train", "qmnist-test", "xnist"]}[self.usage]
        images, labels = [], []
        for prefix in files:
            image_path = os.path.join(self.dataset_dir, prefix + "-images-idx3-ubyte")
            label_path = os.path.join(self.dataset_dir, prefix + "-labels-idx2-int")
            if not (os.path.isfile(image_path) and os.path.isfile(label_path)):
                continue
            image, label = read_idx(image_path), read_idx(label_path).astype(np.uint32)
            if self.usage == "test10k":
                image, label = image[:10000], label[:10000]
            elif self.usage == "test50k":
                image, label = image[10000:], label[10000:]
            images.append(image[..., None])
            labels.append(label[:, 0] if self.compat else label)
        if not images:
            return np.zeros((0, 28, 28, 1), np.uint8), np.zeros(0, np.uint32)
        return np.concatenate(images), np.concatenate(labels)


class USPSDataset(FileCorpusDataset):
    """USPS (``usps`` and ``usps.t`` in LIBSVM format, pixel values in [-1, 1]): columns image
    ((16, 16, 1) uint8) and label (uint32, the digit).

    Args:
        dataset_dir (str): The folder holding usps and usps.t.
        usage (str, optional): 'train', 'test' or 'all' (default None: all).
        num_samples, num_parallel_workers, shuffle (a bool or Shuffle), num_shards, shard_id,
            cache: as every file source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.USPSDataset("/path/to/usps", usage="test", shuffle=False)
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.dataset_dir = check_dir(where, dataset_dir)
        self.usage = check_choice(where, "usage", usage, ["train", "test", "all"], "all")
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _column_names(self):
        return ["image", "label"]

    def _file_rows(self):
        where = type(self).__name__
        files = {"train": ["usps"], "test": ["usps.t"], "all": ["usps", "usps.t"]}[self.usage]
        per_file = []
        for name in files:
            path = os.path.join(self.dataset_dir, name)
            if not os.path.isfile(path):
                continue
            rows = []
            for number, line in enumerate(read_lines(where, path, False), 1):
                fields = line.split()
                if len(fields) != 257:
                    raise RuntimeError(f"{where}: line {number} of {path} has {len(fields) - 1} "
                                       "pixel values where USPS has 256.")
                values = np.array([float(field.split(":")[1]) for field in fields[1:]])
                pixels = ((values + 1) / 2 * 255).astype(np.uint8)
                rows.append((pixels.reshape(16, 16, 1),
                             np.array(int(float(fields[0])) - 1, dtype=np.uint32)))
            per_file.append(rows)
        return per_file


class SemeionDataset(TableDataset):
    """Semeion handwritten digits (``semeion.data``: 256 pixel bits then a one-hot digit per
    line): columns image ((16, 16) uint8) and label (uint32).

    Args:
        dataset_dir (str): The folder holding semeion.data.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.SemeionDataset("/path/to/semeion", shuffle=False)
    """

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(type(self).__name__, dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)

    _column_names = _ImageTableDataset._column_names

    def _load_table(self):
        where = type(self).__name__
        path = os.path.join(self.dataset_dir, "semeion.data")
        if not os.path.isfile(path):
            raise RuntimeError(f"{where}: {path} is missing.")
        images, labels = [], []
        for number, line in enumerate(read_lines(where, path, False), 1):
            values = np.array(line.split(), dtype=np.float64)
            if values.size != 266:
                raise RuntimeError(f"{where}: line {number} of {path} has {values.size} values "
                                   "where Semeion has 266 (256 pixels and a 10-way one-hot label).")
            images.append(values[:256].astype(np.uint8).reshape(16, 16))
            labels.append(np.array(int(np.argmax(values[256:])), dtype=np.uint32))
        return [images, labels]


class STL10Dataset(TableDataset):
    """STL-10 binaries (``{train,test}_X.bin`` column-major 3x96x96 images, ``*_y.bin`` labels
    1..10, ``unlabeled_X.bin``): columns image ((96, 96, 3) uint8) and label (int32, 0..9; -1
    for unlabeled images).

    Args:
        dataset_dir (str): The folder holding the .bin files.
        usage (str, optional): 'train', 'test', 'unlabeled', 'train+unlabeled' or 'all'
            (default None: all).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.STL10Dataset("/path/to/stl10_binary", usage="train")
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.dataset_dir = check_dir(where, dataset_dir)
        self.usage = check_choice(where, "usage", usage,
                                  ["train", "test", "unlabeled", "train+unlabeled", "all"], "all")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)

    def _column_names(self):
        return ["image", "label"]

    def _split(self, split):
        where = type(self).__name__
        path = os.path.join(self.dataset_dir, f"{split}_X.bin")
        if not os.path.isfile(path):
            return []
        raw = np.fromfile(path, dtype=np.uint8)
        if raw.size % (3 * 96 * 96):
            raise RuntimeError(f"{where}: {path} holds {raw.size} bytes, not a whole number of "
                               "3x96x96 images.")
        images = raw.reshape(-1, 3, 96, 96).transpose(0, 3, 2, 1)  # stored column-major
        if split == "unlabeled":
            labels = np.full(len(images), -1, np.int32)
        else:
            labels = np.fromfile(os.path.join(self.dataset_dir, f"{split}_y.bin"), np.uint8)
            if len(labels) != len(images):
                raise RuntimeError(f"{where}: {split}_y.bin has {len(labels)} labels for "
                                   f"{len(images)} images.")
            labels = labels.astype(np.int32) - 1
        return [(np.ascontiguousarray(image), np.array(label, np.int32))
                for image, label in zip(images, labels)]

    def _load_table(self):
        splits = {"train": ["train"], "test": ["test"], "unlabeled": ["unlabeled"],
                  "train+unlabeled": ["train", "unlabeled"],
                  "all": ["train", "test", "unlabeled"]}[self.usage]
        rows = [row for split in splits for row in self._split(split)]
        return [list(column) for column in zip(*rows)] if rows else []
