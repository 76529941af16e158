"""Image corpus loaders: image folders with index files (Caltech256, Food101, SUN397, LFW,
Places365, ...); the binary formats (EMNIST, QMNIST, USPS, Semeion, STL-10) are in
``datasets_array_images``.

An image column holds the file's encoded bytes (uint8 vector) or, with ``decode=True``, its HWC
uint8 pixels; the binary formats hold pixels directly.
"""
import os

import numpy as np

from sporax.dataset.engine.table_sources import (
    TableDataset,
    check_choice,
    check_dir,
    read_image,
    read_lines,
    sorted_dirs,
    sorted_files,
    string,
)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".gif", ".webp")


class _ImageTableDataset(TableDataset):
    """Rows whose first ``_image_columns`` stored cells are image paths."""

    _image_columns = 1
    _image_mode = "RGB"

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 decode=False, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(type(self).__name__, dataset_dir)
        self.decode = bool(decode)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)

    def _column_names(self):
        return ["image", "label"]

    def _cell(self, column, value):
        if column < self._image_columns:
            return read_image(type(self).__name__, value, self.decode, self._image_mode)
        return value


class _UsageImageTableDataset(_ImageTableDataset):
    """An image table chosen by ``usage``: one of ``_usages``, ``_default_usage`` when None."""

    _usages = ("train", "test", "all")
    _default_usage = "all"

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        self.usage = check_choice(type(self).__name__, "usage", usage, list(self._usages),
                                  self._default_usage)
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, cache)


def _images_in(folder):
    return [os.path.join(folder, name) for name in sorted_files(folder)
            if name.lower().endswith(IMAGE_SUFFIXES)]


class Caltech256Dataset(_ImageTableDataset):
    """Caltech-256 (``NNN.<class>/*.jpg``): columns image and label (int32, the class folder's
    index in sorted order).

    Args:
        dataset_dir (str): The folder holding the class folders.
        num_samples, num_parallel_workers, shuffle, decode (default False), sampler, num_shards,
            shard_id, cache: as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.Caltech256Dataset("/path/to/256_ObjectCategories", decode=True)
    """

    def _load_table(self):
        paths, labels = [], []
        for label, folder in enumerate(sorted_dirs(self.dataset_dir)):
            for path in _images_in(os.path.join(self.dataset_dir, folder)):
                paths.append(path)
                labels.append(np.array(label, dtype=np.int32))
        return [paths, labels]


class RenderedSST2Dataset(_UsageImageTableDataset):
    """Rendered SST-2 (``{train,valid,test}/{negative,positive}/*.png``): columns image and
    label (uint32: 0 negative, 1 positive).

    Args:
        dataset_dir (str): The folder holding train/, valid/ and test/.
        usage (str, optional): 'train', 'val', 'test' or 'all' (default None: all).
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.RenderedSST2Dataset("/path/to/rendered_sst2", usage="val")
    """

    _folders = {"train": "train", "val": "valid", "test": "test"}

    _usages = ('train', 'val', 'test', 'all')

    def _load_table(self):
        paths, labels = [], []
        usages = ("test", "train", "val") if self.usage == "all" else (self.usage,)
        for usage in usages:
            for label, polarity in enumerate(("negative", "positive")):
                for path in _images_in(os.path.join(self.dataset_dir, self._folders[usage],
                                                    polarity)):
                    paths.append(path)
                    labels.append(np.array(label, dtype=np.uint32))
        return [paths, labels]


class Food101Dataset(_UsageImageTableDataset):
    """Food-101 (``images/<class>/<id>.jpg`` listed by ``meta/{train,test}.txt``): columns image
    and label (the class name, a string).

    Args:
        dataset_dir (str): The food-101 folder holding images/ and meta/.
        usage (str, optional): 'train', 'test' or 'all' (default None: all).
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.Food101Dataset("/path/to/food-101", usage="test")
    """

    _usages = ('train', 'test', 'all')

    def _load_table(self):
        paths, labels = [], []
        for usage in (("train", "test") if self.usage == "all" else (self.usage,)):
            index = os.path.join(self.dataset_dir, "meta", f"{usage}.txt")
            if not os.path.isfile(index):
                raise RuntimeError(f"{type(self).__name__}: {index} is missing; dataset_dir "
                                   "must hold images/ and meta/{train,test}.txt.")
            for entry in read_lines(type(self).__name__, index, False):
                entry = entry.strip()
                paths.append(os.path.join(self.dataset_dir, "images", entry + ".jpg"))
                labels.append(string(entry.split("/")[0]))
        return [paths, labels]


class SUN397Dataset(_ImageTableDataset):
    """SUN397 (``ClassName.txt`` lists the classes as ``/a/abbey``; images under those
    folders): columns image and label (uint32, the class's line in ClassName.txt).

    Args:
        dataset_dir (str): The SUN397 folder holding ClassName.txt.
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.SUN397Dataset("/path/to/SUN397", decode=True)
    """

    def _load_table(self):
        index = os.path.join(self.dataset_dir, "ClassName.txt")
        if not os.path.isfile(index):
            raise RuntimeError(f"{type(self).__name__}: {index} is missing; dataset_dir must be "
                               "the SUN397 folder holding ClassName.txt.")
        paths, labels = [], []
        for label, name in enumerate(read_lines(type(self).__name__, index, False)):
            for path in _images_in(os.path.join(self.dataset_dir, name.strip().lstrip("/"))):
                paths.append(path)
                labels.append(np.array(label, dtype=np.uint32))
        return [paths, labels]


class OmniglotDataset(_ImageTableDataset):
    """Omniglot (``images_background/`` and ``images_evaluation/``, each
    ``<alphabet>/<character>/*.png``): columns image and label (int32, the character's index
    counted over the alphabets in sorted order).

    Args:
        dataset_dir (str): The folder holding images_background/ and images_evaluation/.
        background (bool, optional): True reads the background set, False the evaluation set
            (default None: both).
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.OmniglotDataset("/path/to/omniglot", background=True)
    """

    def __init__(self, dataset_dir, background=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        if background is not None and not isinstance(background, bool):
            raise TypeError(f"OmniglotDataset: background must be a bool or None, but got "
                            f"{type(background).__name__}.")
        self.background = background
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, cache)

    def _load_table(self):
        sets = {True: ["images_background"], False: ["images_evaluation"],
                None: ["images_background", "images_evaluation"]}[self.background]
        paths, labels, label = [], [], 0
        for name in sets:
            root = os.path.join(self.dataset_dir, name)
            for alphabet in sorted_dirs(root):
                for character in sorted_dirs(os.path.join(root, alphabet)):
                    for path in _images_in(os.path.join(root, alphabet, character)):
                        paths.append(path)
                        labels.append(np.array(label, dtype=np.int32))
                    label += 1
        return [paths, labels]


class LSUNDataset(_ImageTableDataset):
    """LSUN scenes (``<class>_<usage>/*.jpg`` folders): columns image and label (uint32, the
    class's index in ``classes``).

    Args:
        dataset_dir (str): The folder holding the <class>_train/<class>_val folders.
        usage (str, optional): 'train', 'valid', 'test' or 'all' (default None: all).
        classes (Union[str, list[str]], optional): The scene classes (default None: all ten).
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.LSUNDataset("/path/to/lsun", usage="train", classes=["bedroom"])
    """

    CLASSES = ("bedroom", "bridge", "church_outdoor", "classroom", "conference_room",
               "dining_room", "kitchen", "living_room", "restaurant", "tower")

    def __init__(self, dataset_dir, usage=None, classes=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.usage = check_choice(where, "usage", usage, ["train", "valid", "test", "all"], "all")
        classes = list(self.CLASSES) if classes is None else (
            [classes] if isinstance(classes, str) else list(classes))
        for name in classes:
            check_choice(where, "classes", name, self.CLASSES)
        self.classes = classes
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, cache)

    def _load_table(self):
        paths, labels = [], []
        suffixes = {"train": ["train"], "valid": ["val"], "test": [], "all": ["train", "val"]}
        for label, name in enumerate(self.classes):
            for suffix in suffixes[self.usage]:
                for path in _images_in(os.path.join(self.dataset_dir, f"{name}_{suffix}")):
                    paths.append(path)
                    labels.append(np.array(label, dtype=np.uint32))
        if self.usage in ("test", "all"):
            for path in _images_in(os.path.join(self.dataset_dir, "test")):
                paths.append(path)
                labels.append(np.array(-1, dtype=np.int64).astype(np.uint32))
        return [paths, labels]


class Places365Dataset(_ImageTableDataset):
    """Places365 (``places365_<usage>.txt`` lists ``<relative path> <label>``; images under
    ``data_{256,large}_{standard,challenge}/`` or ``val_{256,large}/``): columns image and
    label (uint32).

    Args:
        dataset_dir (str): The folder holding the list files and image folders.
        usage (str, optional): 'train-standard', 'train-challenge' or 'val' (default None:
            'train-standard').
        small (bool, optional): True reads the 256x256 images, False the large ones (default
            True).
        decode, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.Places365Dataset("/path/to/places365", usage="val", small=True)
    """

    def __init__(self, dataset_dir, usage=None, small=True, decode=False, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        self.usage = check_choice(type(self).__name__, "usage", usage,
                                  ["train-standard", "train-challenge", "val"], "train-standard")
        self.small = bool(small)
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, cache)

    def _load_table(self):
        where = type(self).__name__
        size = "256" if self.small else "large"
        if self.usage == "val":
            index, folder = "places365_val.txt", f"val_{size}"
        else:
            kind = self.usage.split("-")[1]
            index, folder = f"places365_train_{kind}.txt", f"data_{size}_{kind}"
        index = os.path.join(self.dataset_dir, index)
        if not os.path.isfile(index):
            raise RuntimeError(f"{where}: {index} is missing; it lists the images of usage "
                               f"{self.usage!r}.")
        paths, labels = [], []
        for line in read_lines(where, index, False):
            name, _, label = line.strip().rpartition(" ")
            paths.append(os.path.join(self.dataset_dir, folder, name.lstrip("/")))
            labels.append(np.array(int(label), dtype=np.uint32))
        return [paths, labels]


class LFWDataset(_ImageTableDataset):
    """Labeled Faces in the Wild (``lfw*/<person>/<person>_NNNN.jpg`` with the people/pairs
    index files): task 'people' gives columns image, label (uint32, the person's line in
    lfw-names.txt); task 'pairs' gives image1, image2, label (1 same person, 0 not).

    Args:
        dataset_dir (str): The folder holding lfw*/ and the index files.
        task (str, optional): 'people' or 'pairs' (default None: 'people').
        usage (str, optional): '10fold', 'train', 'test' or 'all' (default None: 'all').
        image_set (str, optional): 'original', 'funneled' or 'deepfunneled' (default None:
            'funneled').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.LFWDataset("/path/to/lfw", task="pairs", usage="test")
    """

    _folders = {"original": "lfw", "funneled": "lfw_funneled", "deepfunneled": "lfw-deepfunneled"}
    _index = {"train": "DevTrain", "test": "DevTest", "10fold": "", "all": ""}

    def __init__(self, dataset_dir, task=None, usage=None, image_set=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.task = check_choice(where, "task", task, ["people", "pairs"], "people")
        self.usage = check_choice(where, "usage", usage, ["10fold", "train", "test", "all"],
                                  "all")
        self.image_set = check_choice(where, "image_set", image_set, list(self._folders),
                                      "funneled")
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, cache)
        self._image_columns = 1 if self.task == "people" else 2

    def _column_names(self):
        return ["image", "label"] if self.task == "people" else ["image1", "image2", "label"]

    def _image(self, person, number):
        return os.path.join(self.dataset_dir, self._folders[self.image_set], person,
                            f"{person}_{int(number):04d}.jpg")

    def _index_lines(self, stem):
        where = type(self).__name__
        path = os.path.join(self.dataset_dir, f"{stem}{self._index[self.usage]}.txt")
        if not os.path.isfile(path):
            raise RuntimeError(f"{where}: {path} is missing; task {self.task!r} with usage "
                               f"{self.usage!r} reads it.")
        return [line.split("\t") for line in read_lines(where, path, False)]

    def _load_table(self):
        names = [line.split("\t")[0] for line in
                 read_lines(type(self).__name__, os.path.join(self.dataset_dir, "lfw-names.txt"),
                            False)]
        label_of = {name: i for i, name in enumerate(names)}
        if self.task == "people":
            paths, labels = [], []
            for fields in self._index_lines("people"):
                if len(fields) != 2:  # fold counts and sizes
                    continue
                for number in range(1, int(fields[1]) + 1):
                    paths.append(self._image(fields[0], number))
                    labels.append(np.array(label_of[fields[0]], dtype=np.uint32))
            return [paths, labels]
        first, second, labels = [], [], []
        for fields in self._index_lines("pairs"):
            if len(fields) == 3:
                first.append(self._image(fields[0], fields[1]))
                second.append(self._image(fields[0], fields[2]))
                labels.append(np.array(1, dtype=np.uint32))
            elif len(fields) == 4:
                first.append(self._image(fields[0], fields[1]))
                second.append(self._image(fields[2], fields[3]))
                labels.append(np.array(0, dtype=np.uint32))
        return [first, second, labels]


class SBUDataset(_ImageTableDataset):
    """SBU Captioned Photos (``SBU_captioned_photo_dataset_{urls,captions}.txt`` and the
    downloaded ``sbu_images/m_<server>_<photo>.jpg``): columns image and caption (string). Photos
    whose file is missing are left out.

    Args:
        dataset_dir (str): The folder holding the two lists and sbu_images/.
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.SBUDataset("/path/to/sbu", decode=True)
    """

    def _column_names(self):
        return ["image", "caption"]

    def _load_table(self):
        where = type(self).__name__
        urls = read_lines(where, os.path.join(self.dataset_dir,
                                              "SBU_captioned_photo_dataset_urls.txt"), False)
        captions = read_lines(where, os.path.join(self.dataset_dir,
                                                  "SBU_captioned_photo_dataset_captions.txt"),
                              False)
        if len(urls) != len(captions):
            raise RuntimeError(f"{where}: the url list has {len(urls)} lines but the caption "
                               f"list has {len(captions)}; they must match line by line.")
        paths, texts = [], []
        for url, caption in zip(urls, captions):
            # a photo http://static.flickr.com/<server>/<photo>.jpg is stored as m_<server>_<photo>.jpg
            name = "m_" + "_".join(url.strip().split("/")[-2:])
            path = os.path.join(self.dataset_dir, "sbu_images", name)
            if os.path.isfile(path):
                paths.append(path)
                texts.append(string(caption.rstrip()))
        return [paths, texts]
