"""Vision sources: MNIST-format (IDX), CIFAR binary, image folders, fake images."""
import io
import math
import os
import struct

import numpy as np

from sporax.dataset.engine.sources import MappableDataset, gather

_USAGES = ("train", "test", "all")


def _check_dir(where, dataset_dir):
    # MindSpore 2.10's first lines, then which dataset asked
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"Argument dataset_dir with value {dataset_dir} is not of type [<class 'str'>], but got "
                        f"{type(dataset_dir)}.\n({where}: dataset_dir must be a str path.)")
    if not os.path.isdir(dataset_dir):
        raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory or permission denied!"
                         f"\n({where}: dataset_dir must be an existing folder.)")
    return os.fspath(dataset_dir)


def _check_usage(where, usage, allowed=_USAGES):
    usage = "all" if usage is None else usage
    if usage not in allowed:
        raise ValueError(f"{where}: Input usage is not within the valid set of {list(allowed)}.")
    return usage


def read_idx(path):
    """An IDX file (MNIST format) as a NumPy array."""
    with open(path, "rb") as handle:
        data = handle.read()
    if len(data) < 4 or data[0] != 0 or data[1] != 0:
        raise RuntimeError(f"{path} is not an IDX file (bad magic number).")
    type_code, ndim = data[2], data[3]
    dtypes = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
    if type_code not in dtypes:
        raise RuntimeError(f"{path}: unknown IDX element type 0x{type_code:02x}.")
    if len(data) < 4 + 4 * ndim:
        raise RuntimeError(f"{path} is truncated inside its IDX header ({ndim} dimensions need "
                           f"{4 + 4 * ndim} bytes, the file has {len(data)}).")
    shape = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    itemsize = np.dtype(dtypes[type_code]).itemsize
    if (len(data) - 4 - 4 * ndim) % itemsize:
        raise RuntimeError(f"{path}: the IDX data ({len(data) - 4 - 4 * ndim} bytes) is not a "
                           f"whole number of {itemsize}-byte values; the file is damaged.")
    array = np.frombuffer(data, dtype=dtypes[type_code], offset=4 + 4 * ndim)
    if array.size != math.prod(shape):
        raise RuntimeError(f"{path}: IDX header says shape {shape} but the file holds "
                           f"{array.size} values.")
    return array.reshape(shape)


class _SplitFilesDataset(MappableDataset):
    """A dataset of fixed files in ``dataset_dir`` whose ``usage`` ('train', 'test', 'all') picks
    the split; the files are read on first use (``_data``)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.dataset_dir = _check_dir(where, dataset_dir)
        self.usage = _check_usage(where, usage)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self._data = None


class MnistDataset(_SplitFilesDataset):
    """MNIST-format IDX files in ``dataset_dir``: image (28, 28, 1) uint8, label uint32.

    usage 'train' reads train-images-idx3-ubyte / train-labels-idx1-ubyte, 'test' the t10k-*
    files, 'all' (the default) both, test first (as MindSpore, which reads the files in name order).
    """

    def _column_names(self):
        return ["image", "label"]

    def _load(self):
        if self._data is None:
            prefixes = {"train": ["train"], "test": ["t10k"], "all": ["t10k", "train"]}[self.usage]
            images, labels = [], []
            for prefix in prefixes:
                image_path = os.path.join(self.dataset_dir, f"{prefix}-images-idx3-ubyte")
                label_path = os.path.join(self.dataset_dir, f"{prefix}-labels-idx1-ubyte")
                if not os.path.exists(image_path) or not os.path.exists(label_path):
                    continue
                image, label = read_idx(image_path), read_idx(label_path)
                for path, array, rank in ((image_path, image, 3), (label_path, label, 1)):
                    if array.ndim != rank:
                        raise RuntimeError(f"{type(self).__name__}: {path} holds a {array.ndim}-d "
                                           f"IDX array where MNIST has {rank} dimensions; the "
                                           "file is damaged.")
                if len(image) != len(label):
                    raise RuntimeError(f"{type(self).__name__}: {image_path} has {len(image)} "
                                       f"images but {label_path} has {len(label)} labels.")
                images.append(image.reshape(len(image), image.shape[1], image.shape[2], 1))
                labels.append(label.astype(np.uint32))
            if images:
                self._data = (np.concatenate(images), np.concatenate(labels))
            else:
                self._data = (np.zeros((0, 28, 28, 1), np.uint8), np.zeros(0, np.uint32))
        return self._data

    def _labels(self):
        return self._load()[1]

    def _num_rows(self):
        return len(self._load()[1])

    def _read(self, indices):
        images, labels = self._load()
        return [gather(images, indices), gather(labels, indices)]


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST: the same IDX layout and columns as MnistDataset."""


class KMnistDataset(MnistDataset):
    """Kuzushiji-MNIST: the same IDX layout and columns as MnistDataset."""


class Cifar10Dataset(_SplitFilesDataset):
    """CIFAR-10 binary files: image (32, 32, 3) uint8 HWC, label uint32.

    usage 'train' reads data_batch_*.bin, 'test' test_batch.bin, 'all' both.
    """

    _record_labels = 1
    _label_columns = ("label",)

    def _column_names(self):
        return ["image"] + list(self._label_columns)

    def _files(self):
        names = sorted(os.listdir(self.dataset_dir))
        train = [n for n in names if n.startswith("data_batch_") and n.endswith(".bin")]
        test = [n for n in names if n == "test_batch.bin"]
        return {"train": train, "test": test, "all": train + test}[self.usage]

    def _load(self):
        if self._data is None:
            labels = self._record_labels
            record = labels + 3072
            parts = []
            for name in self._files():
                path = os.path.join(self.dataset_dir, name)
                raw = np.fromfile(path, dtype=np.uint8)
                if raw.size % record:
                    raise RuntimeError(f"{type(self).__name__}: {path} is not a CIFAR binary "
                                       f"file ({raw.size} bytes is not a multiple of {record}).")
                parts.append(raw.reshape(-1, record))
            records = np.concatenate(parts) if parts else np.zeros((0, record), np.uint8)
            images = np.ascontiguousarray(records[:, labels:].reshape(-1, 3, 32, 32)
                                          .transpose(0, 2, 3, 1))
            self._data = [images] + [records[:, i].astype(np.uint32) for i in range(labels)]
        return self._data

    def _labels(self):
        return self._load()[-1]

    def _num_rows(self):
        return len(self._load()[0])

    def _read(self, indices):
        return [gather(column, indices) for column in self._load()]


class Cifar100Dataset(Cifar10Dataset):
    """CIFAR-100 binary files: image, coarse_label, fine_label (uint32).

    usage 'train' reads train.bin, 'test' test.bin, 'all' both.
    """

    _record_labels = 2
    _label_columns = ("coarse_label", "fine_label")

    def _files(self):
        train = ["train.bin"] if os.path.exists(os.path.join(self.dataset_dir, "train.bin")) else []
        test = ["test.bin"] if os.path.exists(os.path.join(self.dataset_dir, "test.bin")) else []
        return {"train": train, "test": test, "all": train + test}[self.usage]


class ImageFolderDataset(MappableDataset):
    """Images in ``dataset_dir/<class name>/``: image (encoded bytes, or HWC RGB uint8 with
    ``decode=True``) and label int32 (class folders numbered in sorted order, or by
    ``class_indexing``)."""

    _parallel_reads = True

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, extensions=None, class_indexing=None, decode=False, num_shards=None,
                 shard_id=None, cache=None, decrypt=None):
        where = type(self).__name__
        self.dataset_dir = _check_dir(where, dataset_dir)
        if class_indexing is not None and not isinstance(class_indexing, dict):
            raise TypeError(f"{where}: class_indexing must be a dict {{folder name: label}}.")
        if decrypt is not None:
            raise NotImplementedError(f"{where}(decrypt=...) is not supported by sporax.")
        self.extensions = None if extensions is None else list(extensions)
        self.class_indexing_arg = class_indexing
        self.decode = decode
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self._files = None

    def _column_names(self):
        return ["image", "label"]

    def get_class_indexing(self):
        self._scan()
        return dict(self._class_indexing)

    def num_classes(self):
        self._scan()
        return len(self._class_indexing)

    def _scan(self):
        if self._files is not None:
            return
        folders = sorted(entry for entry in os.listdir(self.dataset_dir)
                         if os.path.isdir(os.path.join(self.dataset_dir, entry)))
        if self.class_indexing_arg is not None:
            indexing = dict(self.class_indexing_arg)
        else:
            indexing = {name: i for i, name in enumerate(folders)}
        files, labels = [], []
        for folder in folders:
            if folder not in indexing:
                continue
            directory = os.path.join(self.dataset_dir, folder)
            for name in sorted(os.listdir(directory)):
                path = os.path.join(directory, name)
                if not os.path.isfile(path):
                    continue
                if self.extensions is not None and os.path.splitext(name)[1] not in self.extensions:
                    continue
                files.append(path)
                labels.append(indexing[folder])
        self._class_indexing = indexing
        self._files = files
        self._file_labels = np.asarray(labels, dtype=np.int32)

    def _labels(self):
        self._scan()
        return self._file_labels

    def _num_rows(self):
        self._scan()
        return len(self._files)

    def _read(self, indices):
        self._scan()
        images = []
        for index in indices:
            path = self._files[int(index)]
            with open(path, "rb") as handle:
                data = handle.read()
            if self.decode:
                images.append(_decode(data, path))
            else:
                images.append(np.frombuffer(data, dtype=np.uint8))
        return [images, gather(self._file_labels, indices)]


def _decode(data, path):
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:
            return np.asarray(image.convert("RGB"))
    except Exception as exc:
        raise RuntimeError(f"ImageFolderDataset: cannot decode {path} as an image: {exc}") from None


class FakeImageDataset(MappableDataset):
    """Random images (``image_size`` uint8) with labels in [0, num_classes), fixed by base_seed."""

    def __init__(self, num_images=1000, image_size=(224, 224, 3), num_classes=10, base_seed=0,
                 num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        self.num_images, self.image_size = num_images, tuple(image_size)
        self._num_classes, self.base_seed = num_classes, base_seed
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self._label_array = np.random.default_rng(base_seed).integers(
            0, num_classes, num_images).astype(np.uint32)

    def _column_names(self):
        return ["image", "label"]

    def _labels(self):
        return self._label_array

    def _num_rows(self):
        return self.num_images

    def _read(self, indices):
        images = np.stack([np.random.default_rng((self.base_seed, int(i))).integers(
            0, 256, self.image_size, dtype=np.uint8) for i in indices]) if len(indices) else \
            np.zeros((0,) + self.image_size, np.uint8)
        return [images, gather(self._label_array, indices)]
