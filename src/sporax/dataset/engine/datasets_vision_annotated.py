"""Vision sources with annotation files: CelebADataset, VOCDataset, CocoDataset."""
import json
import os
import xml.etree.ElementTree as ElementTree

import numpy as np

from sporax.dataset.engine.datasets_vision import _check_dir, _decode
from sporax.dataset.engine.sources import MappableDataset


def _read_image(path, decode):
    with open(path, "rb") as handle:
        data = handle.read()
    return _decode(data, path) if decode else np.frombuffer(data, dtype=np.uint8)


class CelebADataset(MappableDataset):
    """CelebA: images in ``dataset_dir`` with ``list_attr_celeba.txt``; columns image and attr
    (uint32 0/1 per attribute). usage 'train'/'valid'/'test' uses list_eval_partition.txt."""

    _parallel_reads = True
    _usages = {"train": "0", "valid": "1", "test": "2"}

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage="all",
                 sampler=None, decode=False, extensions=None, num_samples=None, num_shards=None,
                 shard_id=None, cache=None, decrypt=None):
        where = type(self).__name__
        self.dataset_dir = _check_dir(where, dataset_dir)
        if usage not in ("all", "train", "valid", "test"):
            raise ValueError(f"{where}: Input usage is not within the valid set of "
                             "['all', 'train', 'valid', 'test'].")
        if decrypt is not None:
            raise NotImplementedError(f"{where}(decrypt=...) is not supported by sporax.")
        self.usage, self.decode = usage, decode
        self.extensions = None if extensions is None else list(extensions)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self._entries = None

    def _column_names(self):
        return ["image", "attr"]

    def _load(self):
        if self._entries is None:
            path = os.path.join(self.dataset_dir, "list_attr_celeba.txt")
            with open(path) as handle:
                lines = handle.read().splitlines()
            self.attribute_names = lines[1].split()
            keep = None
            if self.usage != "all":
                with open(os.path.join(self.dataset_dir, "list_eval_partition.txt")) as handle:
                    wanted = self._usages[self.usage]
                    keep = {p[0] for p in (line.split() for line in handle) if len(p) == 2 and p[1] == wanted}
            names, attributes = [], []
            for line in lines[2:]:
                parts = line.split()
                if not parts or (keep is not None and parts[0] not in keep):
                    continue
                if self.extensions is not None and os.path.splitext(parts[0])[1] not in self.extensions:
                    continue
                names.append(parts[0])
                attributes.append([1 if value == "1" else 0 for value in parts[1:]])
            self._entries = names
            self._attributes = np.asarray(attributes, dtype=np.uint32).reshape(
                len(names), len(self.attribute_names))
        return self._entries

    def _num_rows(self):
        return len(self._load())

    def _read(self, indices):
        names = self._load()
        images = [_read_image(os.path.join(self.dataset_dir, names[int(i)]), self.decode)
                  for i in indices]
        return [images, self._attributes[indices]]


class VOCDataset(MappableDataset):
    """PASCAL VOC: task 'Segmentation' (image, target) or 'Detection' (image, bbox [x, y, w, h]
    float32, label, difficult, truncate uint32), images listed in ImageSets/<Main|Segmentation>/
    <usage>.txt."""

    _parallel_reads = True

    def __init__(self, dataset_dir, task="Segmentation", usage="train", class_indexing=None,
                 num_samples=None, num_parallel_workers=None, shuffle=None, decode=False,
                 sampler=None, num_shards=None, shard_id=None, cache=None, extra_metadata=False,
                 decrypt=None):
        where = type(self).__name__
        self.dataset_dir = _check_dir(where, dataset_dir)
        if task not in ("Segmentation", "Detection"):
            raise ValueError(f"{where}: task must be 'Segmentation' or 'Detection', got {task!r}.")
        if class_indexing is not None and task != "Detection":
            raise ValueError(f"{where}: class_indexing is only valid with task='Detection'.")
        if extra_metadata or decrypt is not None:
            raise NotImplementedError(f"{where}(extra_metadata/decrypt) is not supported by sporax.")
        self.task, self.usage, self.decode = task, usage, decode
        self.class_indexing_arg = class_indexing
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self._names = None

    def _column_names(self):
        if self.task == "Segmentation":
            return ["image", "target"]
        return ["image", "bbox", "label", "difficult", "truncate"]

    def _load(self):
        if self._names is None:
            folder = "Segmentation" if self.task == "Segmentation" else "Main"
            listing = os.path.join(self.dataset_dir, "ImageSets", folder, f"{self.usage}.txt")
            if not os.path.isfile(listing):
                raise ValueError(f"VOCDataset: {listing} does not exist; check usage and task.")
            with open(listing) as handle:
                self._names = [line.strip() for line in handle if line.strip()]
            if self.task == "Detection":
                self._objects = [self._parse(name) for name in self._names]
                found = sorted({obj[0] for objects in self._objects for obj in objects})
                self._class_indexing = dict(self.class_indexing_arg) if self.class_indexing_arg \
                    else {name: i for i, name in enumerate(found)}
        return self._names

    def _parse(self, name):
        tree = ElementTree.parse(os.path.join(self.dataset_dir, "Annotations", f"{name}.xml"))
        objects = []
        for obj in tree.getroot().iter("object"):
            box = obj.find("bndbox")
            xmin, ymin, xmax, ymax = (float(box.find(k).text) for k in ("xmin", "ymin", "xmax", "ymax"))
            objects.append((obj.findtext("name"), [xmin, ymin, xmax - xmin, ymax - ymin],
                            int(float(obj.findtext("difficult", "0"))),
                            int(float(obj.findtext("truncated", "0")))))
        return objects

    def get_class_indexing(self):
        if self.task != "Detection":
            raise RuntimeError("VOCDataset.get_class_indexing is only supported with task='Detection'.")
        self._load()
        return dict(self._class_indexing)

    def _num_rows(self):
        return len(self._load())

    def _read(self, indices):
        names = self._load()
        images, columns = [], [[], [], [], []]
        for index in indices:
            name = names[int(index)]
            images.append(_read_image(os.path.join(self.dataset_dir, "JPEGImages", f"{name}.jpg"),
                                      self.decode))
            if self.task == "Segmentation":
                columns[0].append(_read_image(os.path.join(
                    self.dataset_dir, "SegmentationClass", f"{name}.png"), self.decode))
                continue
            objects = [o for o in self._objects[int(index)] if o[0] in self._class_indexing]
            columns[0].append(np.asarray([o[1] for o in objects], np.float32).reshape(-1, 4))
            columns[1].append(np.asarray([[self._class_indexing[o[0]]] for o in objects], np.uint32).reshape(-1, 1))
            columns[2].append(np.asarray([[o[2]] for o in objects], np.uint32).reshape(-1, 1))
            columns[3].append(np.asarray([[o[3]] for o in objects], np.uint32).reshape(-1, 1))
        if self.task == "Segmentation":
            return [images, columns[0]]
        return [images] + columns


class CocoDataset(MappableDataset):
    """COCO: images in ``dataset_dir``, annotations in ``annotation_file`` (JSON).

    task 'Detection': image, bbox (float32 N x 4), category_id, iscrowd (uint32 N x 1);
    task 'Captioning': image, captions (strings).
    """

    _parallel_reads = True

    def __init__(self, dataset_dir, annotation_file, task="Detection", num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None,
                 num_shards=None, shard_id=None, cache=None, extra_metadata=False, decrypt=None):
        where = type(self).__name__
        self.dataset_dir = _check_dir(where, dataset_dir)
        if not os.path.isfile(annotation_file):
            raise ValueError(f"{where}: The file {annotation_file} does not exist or permission denied!")
        if task not in ("Detection", "Captioning"):
            raise NotImplementedError(f"{where}(task={task!r}) is not supported by sporax; use "
                                      "'Detection' or 'Captioning'.")
        if extra_metadata or decrypt is not None:
            raise NotImplementedError(f"{where}(extra_metadata/decrypt) is not supported by sporax.")
        self.annotation_file, self.task, self.decode = annotation_file, task, decode
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                         cache)
        self._images = None

    def _column_names(self):
        if self.task == "Captioning":
            return ["image", "captions"]
        return ["image", "bbox", "category_id", "iscrowd"]

    def _load(self):
        if self._images is None:
            with open(self.annotation_file) as handle:
                data = json.load(handle)
            by_image = {}
            for ann in data.get("annotations", []):
                by_image.setdefault(ann["image_id"], []).append(ann)
            images = sorted(data.get("images", []), key=lambda image: image["id"])
            self._images = [(image["file_name"], by_image.get(image["id"], [])) for image in images]
            self._categories = data.get("categories", [])
        return self._images

    def get_class_indexing(self):
        self._load()
        return {c["name"]: [c["id"]] for c in self._categories}

    def _num_rows(self):
        return len(self._load())

    def _read(self, indices):
        images = self._load()
        columns = [[] for _ in self._column_names()]
        for index in indices:
            name, annotations = images[int(index)]
            columns[0].append(_read_image(os.path.join(self.dataset_dir, name), self.decode))
            if self.task == "Captioning":
                columns[1].append(np.array([a.get("caption", "") for a in annotations]))
                continue
            columns[1].append(np.asarray([a["bbox"] for a in annotations], np.float32).reshape(-1, 4))
            columns[2].append(np.asarray([[a["category_id"]] for a in annotations], np.uint32).reshape(-1, 1))
            columns[3].append(np.asarray([[a.get("iscrowd", 0)] for a in annotations], np.uint32).reshape(-1, 1))
        return columns
