"""Vision corpora whose labels or pixels are MATLAB ``.mat`` files: SVHN, Flowers102 and
Caltech101 (read with ``scipy.io.loadmat``; SciPy is installed with JAX).
"""
import os

import numpy as np

from sporax.dataset.engine.datasets_vision_corpora import _ImageTableDataset, _images_in
from sporax.dataset.engine.table_sources import TableDataset, check_choice, check_dir, read_lines, sorted_dirs


def load_mat(where, path):
    """The variables of a MATLAB file (v4 to v7.2) as a dict of NumPy arrays."""
    try:
        import scipy.io
    except ImportError:
        raise ImportError(f"{where} reads MATLAB .mat files with scipy.io, which is not "
                          "installed; install it with `pip install scipy`.") from None
    if not os.path.isfile(path):
        raise RuntimeError(f"{where}: {path} is missing.")
    try:
        return scipy.io.loadmat(path)
    except Exception as error:
        raise RuntimeError(f"{where}: cannot read {path} as a MATLAB file: {error}") from None


class SVHNDataset(TableDataset):
    """SVHN cropped digits (``{train,test,extra}_32x32.mat`` with X (32, 32, 3, N) and y):
    columns image ((32, 32, 3) uint8) and label (uint32; the file's 10 for digit 0 becomes 0).

    Args:
        dataset_dir (str): The folder holding the .mat files.
        usage (str, optional): 'train', 'test', 'extra' or 'all' (default None: all).
        num_samples, num_parallel_workers (default 1), shuffle, sampler, num_shards, shard_id:
            as every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.SVHNDataset("/path/to/svhn", usage="test")
    """

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        where = type(self).__name__
        self.dataset_dir = check_dir(where, dataset_dir)
        self.usage = check_choice(where, "usage", usage, ["train", "test", "extra", "all"], "all")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, None)

    def _column_names(self):
        return ["image", "label"]

    def _load_table(self):
        images, labels = [], []
        for usage in (("train", "test", "extra") if self.usage == "all" else (self.usage,)):
            data = load_mat(type(self).__name__,
                            os.path.join(self.dataset_dir, f"{usage}_32x32.mat"))
            pixels = np.ascontiguousarray(np.transpose(data["X"], (3, 0, 1, 2)))
            digits = data["y"].reshape(-1).astype(np.uint32) % 10
            images.extend(pixels)
            labels.extend(np.array(d, dtype=np.uint32) for d in digits)
        return [images, labels]


class Flowers102Dataset(_ImageTableDataset):
    """Oxford 102 Flowers (``jpg/image_NNNNN.jpg``, ``segmim/segmim_NNNNN.jpg``,
    ``imagelabels.mat`` and ``setid.mat``): columns image, label (uint32, 0-based) and for task
    'Segmentation' also segmentation (between them).

    Args:
        dataset_dir (str): The folder holding jpg/, segmim/ and the two .mat files.
        task (str, optional): 'Classification' or 'Segmentation' (default 'Classification').
        usage (str, optional): 'train', 'valid', 'test' or 'all' (default 'all').
        num_samples, num_parallel_workers (default 1), shuffle, decode (default False), sampler,
            num_shards, shard_id: as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.Flowers102Dataset("/path/to/flowers102", task="Segmentation", decode=True)
    """

    _sets = {"train": "trnid", "valid": "valid", "test": "tstid"}

    def __init__(self, dataset_dir, task="Classification", usage="all", num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None):
        where = type(self).__name__
        self.task = check_choice(where, "task", task, ["Classification", "Segmentation"])
        self.usage = check_choice(where, "usage", usage, ["train", "valid", "test", "all"])
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, None)
        self._image_columns = 2 if self.task == "Segmentation" else 1

    def _column_names(self):
        if self.task == "Segmentation":
            return ["image", "segmentation", "label"]
        return ["image", "label"]

    def _load_table(self):
        where = type(self).__name__
        labels = load_mat(where, os.path.join(self.dataset_dir, "imagelabels.mat"))["labels"]
        labels = labels.reshape(-1).astype(np.int64)
        sets = load_mat(where, os.path.join(self.dataset_dir, "setid.mat"))
        usages = ("train", "test", "valid") if self.usage == "all" else (self.usage,)
        numbers = [int(n) for usage in usages for n in sets[self._sets[usage]].reshape(-1)]
        columns = [[] for _ in range(self._image_columns + 1)]
        for number in numbers:
            columns[0].append(os.path.join(self.dataset_dir, "jpg", f"image_{number:05d}.jpg"))
            if self.task == "Segmentation":
                columns[1].append(os.path.join(self.dataset_dir, "segmim",
                                               f"segmim_{number:05d}.jpg"))
            columns[-1].append(np.array(labels[number - 1] - 1, dtype=np.uint32))
        return columns


class Caltech101Dataset(_ImageTableDataset):
    """Caltech 101 (``101_ObjectCategories/<category>/image_NNNN.jpg`` and
    ``Annotations/<category>/annotation_NNNN.mat``): columns image with category (int64, the
    category's index in sorted order, BACKGROUND_Google left out) and/or annotation (the object
    contour, float64 2 x K) by ``target_type``.

    Args:
        dataset_dir (str): The folder holding 101_ObjectCategories/ and Annotations/.
        target_type (str, optional): 'category', 'annotation' or 'all' (default None:
            'category').
        num_samples, num_parallel_workers (default 1), shuffle, decode (default False), sampler,
            num_shards, shard_id: as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.Caltech101Dataset("/path/to/caltech101", target_type="all")
    """

    # the annotation folders that are not named like their image folders
    _annotation_folders = {"Faces": "Faces_2", "Faces_easy": "Faces_3",
                           "Motorbikes": "Motorbikes_16", "airplanes": "Airplanes_Side_2"}

    def __init__(self, dataset_dir, target_type=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None):
        self.target_type = check_choice(type(self).__name__, "target_type", target_type,
                                        ["category", "annotation", "all"], "category")
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, None)

    def _column_names(self):
        return {"category": ["image", "category"], "annotation": ["image", "annotation"],
                "all": ["image", "category", "annotation"]}[self.target_type]

    def _load_table(self):
        root = os.path.join(self.dataset_dir, "101_ObjectCategories")
        categories = [c for c in sorted_dirs(root) if c != "BACKGROUND_Google"]
        paths, numbers, annotations = [], [], []
        for index, category in enumerate(categories):
            for path in _images_in(os.path.join(root, category)):
                paths.append(path)
                numbers.append(np.array(index, dtype=np.int64))
                stem = os.path.basename(path).replace("image_", "annotation_")
                annotations.append(os.path.join(
                    self.dataset_dir, "Annotations",
                    self._annotation_folders.get(category, category),
                    os.path.splitext(stem)[0] + ".mat"))
        columns = {"category": [paths, numbers], "annotation": [paths, annotations],
                   "all": [paths, numbers, annotations]}
        return columns[self.target_type]

    def _cell(self, column, value):
        if self._column_names()[column] == "annotation":
            contour = load_mat(type(self).__name__, value)["obj_contour"]
            return np.ascontiguousarray(contour, dtype=np.float64)
        return super()._cell(column, value)


class SBDataset(_ImageTableDataset):
    """Semantic Boundaries Dataset (``img/<name>.jpg``, ``cls/<name>.mat`` with the ``GTcls``
    struct, and the ``train.txt``/``val.txt``/``train_noval.txt`` lists): columns image and
    task: for 'Boundaries' the 20 class boundary maps (20, H, W), for 'Segmentation' the class
    map (H, W), uint8.

    Args:
        dataset_dir (str): The benchmark_RELEASE/dataset folder.
        task (str, optional): 'Boundaries' (default) or 'Segmentation'.
        usage (str, optional): 'train', 'val', 'train_noval' or 'all' (train then val; default).
        num_samples, num_parallel_workers (default 1), shuffle, decode (default None: False),
            sampler, num_shards, shard_id: as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.SBDataset("/path/to/sbd", task="Segmentation", usage="val")  # doctest: +SKIP
    """

    _classes = 20

    def __init__(self, dataset_dir, task="Boundaries", usage="all", num_samples=None,
                 num_parallel_workers=1, shuffle=None, decode=None, sampler=None, num_shards=None,
                 shard_id=None):
        where = type(self).__name__
        self.task = check_choice(where, "task", task, ["Boundaries", "Segmentation"])
        self.usage = check_choice(where, "usage", usage, ["train", "val", "train_noval", "all"])
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, bool(decode),
                         sampler, num_shards, shard_id, None)

    def _column_names(self):
        return ["image", "task"]

    def _load_table(self):

        where = type(self).__name__
        names = []
        for usage in (("train", "val") if self.usage == "all" else (self.usage,)):
            path = os.path.join(self.dataset_dir, f"{usage}.txt")
            if not os.path.isfile(path):
                raise RuntimeError(f"{where}: {path} not found; usage {self.usage!r} reads it.")
            names += [line.strip() for line in read_lines(where, path, False)]
        return [[os.path.join(self.dataset_dir, "img", f"{n}.jpg") for n in names],
                [os.path.join(self.dataset_dir, "cls", f"{n}.mat") for n in names]]

    def _cell(self, column, value):
        if column == 0:
            return super()._cell(column, value)
        truth = load_mat(type(self).__name__, value)["GTcls"][0, 0]
        if self.task == "Segmentation":
            return np.ascontiguousarray(truth["Segmentation"], dtype=np.uint8)
        boundaries = truth["Boundaries"]
        return np.stack([boundaries[k, 0].toarray() for k in range(self._classes)]).astype(np.uint8)
