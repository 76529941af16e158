"""Annotated vision benchmarks: DIV2K, Flickr8k/30k, KITTI, ModelArts manifests, WIDER FACE,
PhotoTour and Cityscapes, each reading the layout and annotation files MindSpore documents.
"""
import json
import os

import numpy as np
from PIL import Image

from sporax.dataset.engine.datasets_vision_corpora import _ImageTableDataset, _images_in, _UsageImageTableDataset
from sporax.dataset.engine.table_sources import (TableDataset, check_choice, check_dir, read_image, read_lines,
                                                 sorted_dirs, string)


class DIV2KDataset(_ImageTableDataset):
    """DIV2K super-resolution pairs (``DIV2K_<usage>_HR/NNNN.png`` and the low-resolution
    folder of ``downgrade`` and ``scale``): columns hr_image and lr_image.

    Args:
        dataset_dir (str): The folder holding the DIV2K_* folders.
        usage (str, optional): 'train', 'valid' or 'all' (default 'train').
        downgrade (str, optional): 'bicubic', 'unknown', 'mild', 'difficult' or 'wild' (default
            'bicubic').
        scale (int, optional): 2, 3, 4 or 8 (default 2); 'unknown' allows 2-4, the realistic
            downgrades 4 only.
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.DIV2KDataset("/path/to/DIV2K", usage="valid", downgrade="unknown", scale=3)
    """

    _image_columns = 2
    _scales = {"bicubic": (2, 3, 4, 8), "unknown": (2, 3, 4), "mild": (4,), "difficult": (4,),
               "wild": (4,)}

    def __init__(self, dataset_dir, usage="train", downgrade="bicubic", scale=2, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.usage = check_choice(where, "usage", usage, ["train", "valid", "all"])
        self.downgrade = check_choice(where, "downgrade", downgrade, list(self._scales))
        self.scale = check_choice(where, "scale", scale, self._scales[self.downgrade])
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, cache)

    def _column_names(self):
        return ["hr_image", "lr_image"]

    def _low_resolution(self, usage, stem):
        if self.downgrade in ("bicubic", "unknown"):
            folder = f"DIV2K_{usage}_LR_{self.downgrade}" + ("" if self.scale == 8 else
                                                             f"/X{self.scale}")
            if self.scale == 8:
                folder = f"DIV2K_{usage}_LR_x8"
            return os.path.join(self.dataset_dir, folder, f"{stem}x{self.scale}.png")
        return os.path.join(self.dataset_dir, f"DIV2K_{usage}_LR_{self.downgrade}",
                            f"{stem}x4{self.downgrade[0]}.png")

    def _load_table(self):
        high, low = [], []
        for usage in (("train", "valid") if self.usage == "all" else (self.usage,)):
            for path in _images_in(os.path.join(self.dataset_dir, f"DIV2K_{usage}_HR")):
                stem = os.path.splitext(os.path.basename(path))[0]
                partner = self._low_resolution(usage, stem)
                if not os.path.isfile(partner):
                    raise RuntimeError(f"{type(self).__name__}: {path} has no low-resolution "
                                       f"partner {partner} for downgrade {self.downgrade!r} "
                                       f"scale {self.scale}.")
                high.append(path)
                low.append(partner)
        return [high, low]


class FlickrDataset(_ImageTableDataset):
    """Flickr8k/Flickr30k (images in ``dataset_dir``; ``annotation_file`` lines
    ``<image>#<k><TAB><caption>``): columns image and annotation (1-d array of the image's
    captions in order).

    Args:
        dataset_dir (str): The folder holding the images.
        annotation_file (str): The token file (Flickr8k.token.txt or results_20130124.token).
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.FlickrDataset("/path/to/Flickr8k_Dataset", "/path/to/Flickr8k.token.txt")
    """

    def __init__(self, dataset_dir, annotation_file, num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=None, sampler=None, num_shards=None, shard_id=None,
                 cache=None):
        if not os.path.isfile(annotation_file):
            raise ValueError(f"FlickrDataset: annotation_file {annotation_file} does not exist "
                             "or permission denied!")
        self.annotation_file = os.fspath(annotation_file)
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, cache)

    def _column_names(self):
        return ["image", "annotation"]

    def _load_table(self):
        captions = {}
        for line in read_lines(type(self).__name__, self.annotation_file, False):
            key, _, caption = line.partition("\t")
            captions.setdefault(key.split("#")[0], []).append(caption.strip())
        paths, annotations = [], []
        for name, texts in captions.items():
            path = os.path.join(self.dataset_dir, name)
            if os.path.isfile(path):
                paths.append(path)
                annotations.append(np.array(texts, dtype=np.str_))
        return [paths, annotations]


class KITTIDataset(_UsageImageTableDataset):
    """KITTI object detection (``data_object_image_2/{training,testing}/image_2/*.png`` and
    ``data_object_label_2/training/label_2/*.txt``): usage 'train' gives columns image, label
    (uint32 class index over the sorted object types seen), truncated, occluded (uint32), alpha,
    bbox, dimensions, location, rotation_y (float32, one row per object); 'test' gives image only.

    Args:
        dataset_dir (str): The folder holding data_object_image_2/ and data_object_label_2/.
        usage (str, optional): 'train' or 'test' (default None: 'train').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.KITTIDataset("/path/to/kitti", usage="train")
    """

    _fields = (("truncated", 1, 1, np.float32), ("occluded", 2, 1, np.uint32),
               ("alpha", 3, 1, np.float32), ("bbox", 4, 4, np.float32),
               ("dimensions", 8, 3, np.float32), ("location", 11, 3, np.float32),
               ("rotation_y", 14, 1, np.float32))

    _usages = ('train', 'test')
    _default_usage = 'train'

    def _column_names(self):
        if self.usage == "test":
            return ["image"]
        return ["image", "label"] + [name for name, _, _, _ in self._fields]

    def _load_table(self):
        split = "training" if self.usage == "train" else "testing"
        images = _images_in(os.path.join(self.dataset_dir, "data_object_image_2", split,
                                         "image_2"))
        if self.usage == "test":
            return [images]
        label_dir = os.path.join(self.dataset_dir, "data_object_label_2", split, "label_2")
        objects, kept = [], []
        for path in images:
            stem = os.path.splitext(os.path.basename(path))[0]
            label_path = os.path.join(label_dir, stem + ".txt")
            if not os.path.isfile(label_path):
                continue
            objects.append([line.split() for line in
                            read_lines(type(self).__name__, label_path, False)])
            kept.append(path)
        kinds = {kind: i for i, kind in enumerate(sorted({o[0] for rows in objects for o in rows}))}
        columns = [kept, []] + [[] for _ in self._fields]
        for rows in objects:
            columns[1].append(np.array([[kinds[o[0]]] for o in rows], dtype=np.uint32))
            for j, (_, start, width, dtype) in enumerate(self._fields):
                values = np.array([[float(v) for v in o[start:start + width]] for o in rows])
                columns[2 + j].append(values.astype(np.int64).astype(dtype)
                                      if dtype == np.uint32 else values.astype(dtype))
        return columns


class ManifestDataset(_ImageTableDataset):
    """A ModelArts manifest (JSON lines of ``source``, ``usage`` and classification
    ``annotation``s): columns image and label (int32; an array when an image has several).

    Args:
        dataset_file (str): The manifest file.
        usage (str, optional): 'train', 'eval' or 'inference' (default 'train').
        class_indexing (dict, optional): {label name: index} (default None: sorted names).
        num_samples, num_parallel_workers, shuffle, sampler, decode, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.ManifestDataset("/path/to/manifest.json", usage="eval")
    """

    def __init__(self, dataset_file, usage="train", num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, class_indexing=None, decode=False, num_shards=None,
                 shard_id=None, cache=None):
        where = type(self).__name__
        if not os.path.isfile(dataset_file):
            raise ValueError(f"{where}: The file {dataset_file} does not exist or permission "
                             "denied!")
        self.dataset_file = os.fspath(dataset_file)
        self.usage = check_choice(where, "usage", usage, ["train", "eval", "inference"])
        if class_indexing is not None and not isinstance(class_indexing, dict):
            raise TypeError(f"{where}: class_indexing must be a dict {{label name: index}}.")
        self.class_indexing_arg = class_indexing
        self.dataset_dir = os.path.dirname(os.path.abspath(dataset_file))
        super().__init__(self.dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, cache)

    def _column_names(self):
        return ["image", "label"]

    def _entries(self):
        where = type(self).__name__
        entries = []
        for number, line in enumerate(read_lines(where, self.dataset_file, False), 1):
            try:
                record = json.loads(line)
            except ValueError as error:
                raise RuntimeError(f"{where}: line {number} of {self.dataset_file} is not JSON: "
                                   f"{error}.") from None
            if record.get("usage", "").lower() != self.usage:
                continue
            names = [a["name"] for a in record.get("annotation", []) if "name" in a]
            entries.append((record["source"], names))
        return entries

    def get_class_indexing(self):
        if self.class_indexing_arg is not None:
            return dict(self.class_indexing_arg)
        names = sorted({name for _, labels in self._entries() for name in labels})
        return {name: i for i, name in enumerate(names)}

    def num_classes(self):
        return len(self.get_class_indexing())

    def _load_table(self):
        indexing = self.get_class_indexing()
        paths, labels = [], []
        for source, names in self._entries():
            values = [indexing[name] for name in names if name in indexing]
            paths.append(source)
            labels.append(np.array(values[0] if len(values) == 1 else values, dtype=np.int32))
        return [paths, labels]


class WIDERFaceDataset(_UsageImageTableDataset):
    """WIDER FACE (``WIDER_<usage>/images/<event>/*.jpg`` and
    ``wider_face_split/wider_face_<usage>_bbx_gt.txt``): columns image, bbox (N x 4), blur,
    expression, illumination, occlusion, pose, invalid (int32, one per face); usage 'test' gives
    image only.

    Args:
        dataset_dir (str): The folder holding WIDER_*/ and wider_face_split/.
        usage (str, optional): 'train', 'test', 'valid' or 'all' (train and valid; default None:
            'all').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.WIDERFaceDataset("/path/to/wider_face", usage="valid")
    """

    _attributes = ("blur", "expression", "illumination", "occlusion", "pose", "invalid")
    _splits = {"train": "train", "valid": "val", "test": "test"}

    _usages = ('train', 'test', 'valid', 'all')

    def _column_names(self):
        return ["image"] if self.usage == "test" else ["image", "bbox"] + list(self._attributes)

    def _boxes(self, split):
        where = type(self).__name__
        path = os.path.join(self.dataset_dir, "wider_face_split", f"wider_face_{split}_bbx_gt.txt")
        if not os.path.isfile(path):
            raise RuntimeError(f"{where}: {path} is missing; usage {self.usage!r} reads it.")
        lines, boxes, position = read_lines(where, path, False), {}, 0
        while position < len(lines):
            name, count = lines[position].strip(), int(lines[position + 1])
            rows = [line.split() for line in lines[position + 2:position + 2 + max(count, 1)]]
            boxes[name] = np.array([[int(v) for v in row[:10]] for row in rows][:count] or
                                   np.zeros((0, 10)), dtype=np.int32).reshape(-1, 10)
            position += 2 + max(count, 1)
        return boxes

    def _load_table(self):
        usages = ("train", "valid") if self.usage == "all" else (self.usage,)
        columns = [[] for _ in range(1 if self.usage == "test" else 8)]
        for usage in usages:
            split = self._splits[usage]
            root = os.path.join(self.dataset_dir, f"WIDER_{split}", "images")
            boxes = None if usage == "test" else self._boxes(split)
            for event in sorted_dirs(root):
                for path in _images_in(os.path.join(root, event)):
                    if boxes is None:
                        columns[0].append(path)
                        continue
                    values = boxes.get(f"{event}/{os.path.basename(path)}")
                    if values is None:
                        continue
                    columns[0].append(path)
                    columns[1].append(np.ascontiguousarray(values[:, :4]))
                    for j in range(6):
                        columns[2 + j].append(np.ascontiguousarray(values[:, 4 + j]))
        return columns


class PhotoTourDataset(TableDataset):
    """PhotoTour patches (``<name>/patchesNNNN.bmp`` sheets of 16x16 patches of 64x64,
    ``info.txt``, ``m50_100000_100000_0.txt``): usage 'train' gives column image (64, 64, 1)
    uint8 for every patch; 'test' gives image1, image2 and matches (uint32: 1 when both patches
    show the same 3D point).

    Args:
        dataset_dir (str): The folder holding the <name> folders.
        name (str): 'notredame', 'yosemite', 'liberty' or their '_harris' variants.
        usage (str, optional): 'train' or 'test' (default None: 'train').
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache: as
            every mappable source.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.PhotoTourDataset("/path/to/phototour", name="liberty", usage="test")
    """

    NAMES = ("notredame", "yosemite", "liberty", "notredame_harris", "yosemite_harris",
             "liberty_harris")

    def __init__(self, dataset_dir, name, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.dataset_dir = check_dir(where, dataset_dir)
        self.name = check_choice(where, "name", name, self.NAMES)
        self.usage = check_choice(where, "usage", usage, ["train", "test"], "train")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
        self._sheets = {}

    def _column_names(self):
        return ["image"] if self.usage == "train" else ["image1", "image2", "matches"]

    def _patch(self, index):

        sheet = index // 256
        if sheet not in self._sheets:
            path = os.path.join(self.dataset_dir, self.name, f"patches{sheet:04d}.bmp")
            with Image.open(path) as image:
                self._sheets[sheet] = np.asarray(image.convert("L"))
        row, column = divmod(index % 256, 16)
        patch = self._sheets[sheet][row * 64:(row + 1) * 64, column * 64:(column + 1) * 64]
        return np.ascontiguousarray(patch[..., None])

    def _load_table(self):
        where = type(self).__name__
        folder = os.path.join(self.dataset_dir, self.name)
        if self.usage == "train":
            count = len(read_lines(where, os.path.join(folder, "info.txt"), False))
            return [list(range(count))]
        columns = [[], [], []]
        for line in read_lines(where, os.path.join(folder, "m50_100000_100000_0.txt"), False):
            fields = [int(v) for v in line.split()]
            columns[0].append(fields[0])
            columns[1].append(fields[3])
            columns[2].append(np.array(int(fields[1] == fields[4]), dtype=np.uint32))
        return columns

    def _cell(self, column, value):
        return value if column == 2 else self._patch(value)


class CityscapesDataset(_ImageTableDataset):
    """Cityscapes (``leftImg8bit/<usage>/<city>/*_leftImg8bit.png`` with the ground truth of
    ``gtFine`` or ``gtCoarse``): columns image and task (the instanceIds, labelIds or color image;
    for task 'polygon' the polygons JSON re-serialised as a string).

    Args:
        dataset_dir (str): The folder holding leftImg8bit/ and gtFine/ or gtCoarse/.
        usage (str, optional): 'train', 'test', 'val' or 'all' for quality_mode 'fine';
            'train', 'train_extra', 'val' or 'all' for 'coarse' (default 'train').
        quality_mode (str, optional): 'fine' or 'coarse' (default 'fine').
        task (str, optional): 'instance', 'semantic', 'polygon' or 'color' (default 'instance').
        num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id, cache:
            as ImageFolderDataset.

    Examples:
        >>> import sporax.dataset as ds
        >>> dataset = ds.CityscapesDataset("/path/to/cityscapes", task="semantic", decode=True)
    """

    _suffixes = {"instance": "instanceIds.png", "semantic": "labelIds.png",
                 "color": "color.png", "polygon": "polygons.json"}

    def __init__(self, dataset_dir, usage="train", quality_mode="fine", task="instance",
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        where = type(self).__name__
        self.quality_mode = check_choice(where, "quality_mode", quality_mode, ["fine", "coarse"])
        usages = ["train", "test", "val"] if self.quality_mode == "fine" else \
            ["train", "train_extra", "val"]
        self.usage = check_choice(where, "usage", usage, usages + ["all"])
        self._usages = usages if self.usage == "all" else [self.usage]
        self.task = check_choice(where, "task", task, list(self._suffixes))
        super().__init__(dataset_dir, num_samples, num_parallel_workers, shuffle, decode,
                         sampler, num_shards, shard_id, cache)

    def _column_names(self):
        return ["image", "task"]

    def _load_table(self):
        quality = "gtFine" if self.quality_mode == "fine" else "gtCoarse"
        images, targets = [], []
        for usage in self._usages:
            root = os.path.join(self.dataset_dir, "leftImg8bit", usage)
            for city in sorted_dirs(root):
                for path in _images_in(os.path.join(root, city)):
                    stem = os.path.basename(path).replace("_leftImg8bit.png", "")
                    target = os.path.join(self.dataset_dir, quality, usage, city,
                                          f"{stem}_{quality}_{self._suffixes[self.task]}")
                    if os.path.isfile(target):
                        images.append(path)
                        targets.append(target)
        return [images, targets]

    def _cell(self, column, value):
        if column == 1 and self.task == "polygon":
            with open(value, encoding="utf-8") as handle:
                document = json.load(handle)
            return string(json.dumps(document, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False))
        if column == 1:

            return read_image(type(self).__name__, value, self.decode,
                              "RGB" if self.task == "color" else "L")
        return super()._cell(column, value)
