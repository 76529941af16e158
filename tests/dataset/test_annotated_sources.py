"""CelebA, VOC, COCO and TFRecord sources, against values recorded from MindSpore 2.10."""
import json
import struct

import numpy as np
import pytest
from PIL import Image

import sporax.dataset as ds


def summary(dataset):
    return [[(str(x.dtype), x.shape, x.tolist() if x.dtype != np.uint8 or x.size < 5 else "img")
             for x in row] for row in dataset.create_tuple_iterator(output_numpy=True)]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("annotated")
    rng = np.random.default_rng(0)
    celeba = root / "celeba"
    celeba.mkdir()
    for name in ("000001.jpg", "000002.jpg", "000003.jpg"):
        Image.fromarray(rng.integers(0, 256, (6, 5, 3), dtype=np.uint8)).save(celeba / name)
    (celeba / "list_attr_celeba.txt").write_text(
        "3\n5_o_Clock_Shadow Arched_Eyebrows Attractive\n000001.jpg -1  1  1\n"
        "000002.jpg  1 -1 -1\n000003.jpg -1 -1  1\n")
    (celeba / "list_eval_partition.txt").write_text("000001.jpg 0\n000002.jpg 1\n000003.jpg 2\n")
    voc = root / "voc"
    for sub in ("JPEGImages", "Annotations", "ImageSets/Main", "ImageSets/Segmentation", "SegmentationClass"):
        (voc / sub).mkdir(parents=True)
    for i, name in enumerate(("a1", "a2")):
        Image.fromarray(rng.integers(0, 256, (8, 10, 3), dtype=np.uint8)).save(voc / "JPEGImages" / f"{name}.jpg")
        Image.fromarray(rng.integers(0, 3, (8, 10), dtype=np.uint8)).save(voc / "SegmentationClass" / f"{name}.png")
        objects = "".join(
            f"<object><name>{c}</name><truncated>{t}</truncated><difficult>0</difficult><bndbox>"
            f"<xmin>{x}</xmin><ymin>2</ymin><xmax>{x + 3}</xmax><ymax>6</ymax></bndbox></object>"
            for c, t, x in [("dog", 0, 1), ("cat", 1, 4)][:i + 1])
        (voc / "Annotations" / f"{name}.xml").write_text(f"<annotation>{objects}</annotation>")
    (voc / "ImageSets/Main/train.txt").write_text("a1\na2\n")
    (voc / "ImageSets/Segmentation/train.txt").write_text("a1\na2\n")
    coco = root / "coco"
    coco.mkdir()
    for name in ("x1.jpg", "x2.jpg"):
        Image.fromarray(rng.integers(0, 256, (8, 10, 3), dtype=np.uint8)).save(coco / name)
    annotations = {
        "images": [{"id": 1, "file_name": "x1.jpg"}, {"id": 2, "file_name": "x2.jpg"}],
        "annotations": [{"image_id": 1, "bbox": [1, 2, 3, 4], "category_id": 3, "iscrowd": 0},
                        {"image_id": 1, "bbox": [0.5, 1, 2, 2], "category_id": 5, "iscrowd": 1},
                        {"image_id": 2, "bbox": [2, 2, 2, 2], "category_id": 3, "iscrowd": 0}],
        "categories": [{"id": 3, "name": "dog"}, {"id": 5, "name": "cat"}]}
    (coco / "ann.json").write_text(json.dumps(annotations))
    return root


def test_celeba(folders):
    data = ds.CelebADataset(str(folders / "celeba"), shuffle=False)
    assert data.get_col_names() == ["image", "attr"] and data.get_dataset_size() == 3
    assert [row[1] for row in summary(data)] == [("uint32", (3,), [0, 1, 1]), ("uint32", (3,), [1, 0, 0]),
                                                 ("uint32", (3,), [0, 0, 1])]
    assert ds.CelebADataset(str(folders / "celeba"), usage="valid").get_dataset_size() == 1
    decoded = summary(ds.CelebADataset(str(folders / "celeba"), shuffle=False, decode=True))
    assert decoded[0][0][:2] == ("uint8", (6, 5, 3))


def test_voc_detection_and_segmentation(folders):
    detection = ds.VOCDataset(str(folders / "voc"), task="Detection", shuffle=False)
    assert detection.get_col_names() == ["image", "bbox", "label", "difficult", "truncate"]
    assert detection.get_class_indexing() == {"cat": 0, "dog": 1}
    second = summary(detection)[1]
    assert second[1] == ("float32", (2, 4), [[1.0, 2.0, 3.0, 4.0], [4.0, 2.0, 3.0, 4.0]])
    assert second[2:] == [("uint32", (2, 1), [[1], [0]]), ("uint32", (2, 1), [[0], [0]]),
                          ("uint32", (2, 1), [[0], [1]])]
    indexed = ds.VOCDataset(str(folders / "voc"), task="Detection", shuffle=False,
                            class_indexing={"dog": 7, "cat": 9})
    assert summary(indexed)[1][2] == ("uint32", (2, 1), [[7], [9]])
    segmentation = ds.VOCDataset(str(folders / "voc"), shuffle=False, decode=True)
    assert segmentation.get_col_names() == ["image", "target"]
    assert [x[:2] for x in summary(segmentation)[0]] == [("uint8", (8, 10, 3)), ("uint8", (8, 10, 3))]


def test_coco_detection(folders):
    data = ds.CocoDataset(str(folders / "coco"), str(folders / "coco" / "ann.json"), shuffle=False)
    assert data.get_col_names() == ["image", "bbox", "category_id", "iscrowd"]
    assert data.get_class_indexing() == {"dog": [3], "cat": [5]}
    first = summary(data)[0]
    assert first[1:] == [("float32", (2, 4), [[1.0, 2.0, 3.0, 4.0], [0.5, 1.0, 2.0, 2.0]]),
                         ("uint32", (2, 1), [[3], [5]]), ("uint32", (2, 1), [[0], [1]])]
    with pytest.raises(NotImplementedError, match="Keypoint"):
        ds.CocoDataset(str(folders / "coco"), str(folders / "coco" / "ann.json"), task="Keypoint")


def _varint(n):
    out = b""
    n &= (1 << 64) - 1
    while True:
        low, n = n & 0x7F, n >> 7
        if n:
            out += bytes([low | 0x80])
        else:
            return out + bytes([low])


def _field(number, payload):
    return _varint((number << 3) | 2) + _varint(len(payload)) + payload


def _example(features):
    entries = b""
    for key, (kind, values) in features.items():
        if kind == "int":
            feature = _field(3, _field(1, b"".join(_varint(v) for v in values)))
        elif kind == "float":
            feature = _field(2, _field(1, b"".join(struct.pack("<f", v) for v in values)))
        else:
            feature = _field(1, b"".join(_field(1, v) for v in values))
        entries += _field(1, _field(1, key.encode()) + _field(2, feature))
    return _field(1, entries)


def test_tfrecord(tmp_path):
    path = tmp_path / "d.tfrecord"
    with open(path, "wb") as handle:
        for i in range(3):
            data = _example({"a": ("int", [i, -i]), "b": ("float", [0.5 * i]), "c": ("bytes", [b"hi%d" % i])})
            handle.write(struct.pack("<Q", len(data)) + b"\0" * 4 + data + b"\0" * 4)
    data = ds.TFRecordDataset(str(path), shuffle=False)
    assert data.get_col_names() == ["a", "b", "c"] and data.get_dataset_size() == 3
    assert summary(data)[1] == [("int64", (2,), [1, -1]), ("float32", (1,), [0.5]),
                                ("uint8", (3,), [104, 105, 49])]
    assert ds.TFRecordDataset(str(path), shuffle=False, columns_list=["c", "a"]).get_col_names() == ["c", "a"]
    schema = ds.Schema()
    schema.add_column("a", de_type=np.int32, shape=[2])
    schema.add_column("b", de_type=np.float32)
    assert summary(ds.TFRecordDataset(str(path), schema=schema, shuffle=False))[2] == \
        [("int32", (2,), [2, -2]), ("float32", (1,), [1.0])]
    assert ds.TFRecordDataset(str(path), num_samples=2).get_dataset_size() == 2
