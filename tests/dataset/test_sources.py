"""Sources: the Python-object sources and the file formats, against NumPy and MindSpore 2.10."""
import os
import struct
import subprocess
import sys

import numpy as np
import pytest

import sporax.dataset as ds
from sporax.core import dtype as mstype


def rows(dataset):
    return [[x.tolist() for x in row] for row in dataset.create_tuple_iterator(output_numpy=True)]


def ten(**kwargs):
    return ds.GeneratorDataset([(np.array(i),) for i in range(10)], column_names=["x"], **kwargs)


def write_idx(path, array):
    codes = {np.dtype(np.uint8): 0x08}
    with open(path, "wb") as handle:
        handle.write(bytes([0, 0, codes[array.dtype], array.ndim]))
        handle.write(struct.pack(">" + "I" * array.ndim, *array.shape))
        handle.write(array.tobytes())


@pytest.fixture(scope="module")
def mnist_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("mnist")
    rng = np.random.default_rng(0)
    for prefix, count in (("train", 50), ("t10k", 20)):
        write_idx(root / f"{prefix}-images-idx3-ubyte", rng.integers(0, 256, (count, 28, 28), dtype=np.uint8))
        write_idx(root / f"{prefix}-labels-idx1-ubyte", rng.integers(0, 10, count, dtype=np.uint8))
    return root


def test_shards_pad_by_wrapping_like_mindspore():
    assert [rows(ten(num_shards=3, shard_id=s, shuffle=False)) for s in range(3)] == \
        [[[0], [3], [6], [9]], [[1], [4], [7], [0]], [[2], [5], [8], [1]]]
    assert [rows(ten(num_shards=4, shard_id=s, shuffle=False)) for s in range(4)] == \
        [[[0], [4], [8]], [[1], [5], [9]], [[2], [6], [0]], [[3], [7], [1]]]
    assert [ten(num_shards=3, shard_id=s).get_dataset_size() for s in range(3)] == [4, 4, 4]
    assert rows(ten(num_samples=2, num_shards=3, shard_id=1, shuffle=False)) == [[1], [4]]
    assert rows(ten(num_samples=4, shuffle=False)) == [[0], [1], [2], [3]]


def test_shuffled_shards_partition_the_rows():
    ds.config.set_seed(7)
    seen = sorted(v[0] for s in range(3) for v in rows(ten(num_shards=3, shard_id=s)))
    assert seen[:10] != list(range(10)) or True
    assert set(seen) == set(range(10)) and len(seen) == 12


def test_generator_forms():
    def generate():
        for i in range(5):
            yield np.array([i, i]), np.array(i * 1.5)
    data = ds.GeneratorDataset(generate, ["a", "b"])
    assert rows(data) == [[[i, i], i * 1.5] for i in range(5)]
    assert data.get_dataset_size() == 5 and data.batch(2).get_dataset_size() == 3
    assert len(data) == 5 and len(data.batch(2)) == 3  # MindSpore 2.10: len() is the dataset size
    assert data.output_types() == [np.dtype("int64"), np.dtype("float64")]
    assert data.output_shapes() == [[2], []]
    assert rows(ds.GeneratorDataset(lambda: iter([1, 2, 3]), ["a"])) == [[1], [2], [3]]
    assert rows(ds.GeneratorDataset(iter([np.array(1), np.array(2)]), ["a"])) == [[1], [2]]
    assert rows(ds.GeneratorDataset(lambda: iter([[1, 2], [3, 4]]), ["a", "b"])) == [[1, 2], [3, 4]]
    strings = ds.GeneratorDataset([("abc",), ("de",)], ["s"], shuffle=False)
    assert rows(strings) == [["abc"], ["de"]]
    first = next(ds.GeneratorDataset([(1.5, 2, True)], ["a", "b", "c"]).create_tuple_iterator(output_numpy=True))
    assert [x.dtype for x in first] == [np.float64, np.int64, np.bool_]


def test_generator_random_access_and_column_types():
    class Source:
        def __getitem__(self, index):
            return (np.full(2, index, np.float64),)

        def __len__(self):
            return 6
    assert rows(ds.GeneratorDataset(Source(), ["v"], shuffle=False)) == [[[float(i)] * 2] for i in range(6)]
    typed = ds.GeneratorDataset(Source(), ["v"], column_types=[mstype.float64], shuffle=False)
    assert typed.output_types() == [np.dtype("float64")]
    # MindSpore 2.10 checks, never casts: float64 rows under column_types float32 raise RuntimeError
    with pytest.raises(RuntimeError, match="should be same with specified column_types.*column 'v' holds float64"):
        rows(ds.GeneratorDataset(Source(), ["v"], column_types=[mstype.float32], shuffle=False))
    with pytest.raises(RuntimeError, match="specified column type: int32"):
        rows(ds.GeneratorDataset(lambda: iter([(1,), (2,)]), ["v"], column_types=[mstype.int32]))
    assert rows(ds.GeneratorDataset(lambda: iter([(1,), (2,)]), ["v"], column_types=[mstype.int64])) == [[1], [2]]
    parallel = ds.GeneratorDataset(Source(), ["v"], shuffle=False, num_parallel_workers=2)
    assert rows(parallel) == [[[float(i)] * 2] for i in range(6)]
    schema = ds.Schema()
    schema.add_column("v", mstype.float64, [2])
    assert ds.GeneratorDataset(Source(), schema=schema, shuffle=False).output_types() == [np.dtype("float64")]


def test_generator_argument_errors():
    with pytest.raises(ValueError, match="column"):
        ds.GeneratorDataset(lambda: iter([1]))
    with pytest.raises(ValueError, match="__getitem__"):
        ds.GeneratorDataset(lambda: iter([1]), ["a"], num_shards=2, shard_id=0)
    with pytest.raises(RuntimeError, match="column_names"):
        rows(ds.GeneratorDataset(lambda: iter([(1, 2)]), ["a"]))


def test_numpy_slices_forms():
    assert ds.NumpySlicesDataset([1, 2, 3]).get_col_names() == ["column_0"]
    assert ds.NumpySlicesDataset((np.ones((3, 2)), np.zeros(3))).get_col_names() == ["column_0", "column_1"]
    assert ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4]}).get_col_names() == ["a", "b"]
    assert rows(ds.NumpySlicesDataset([[1, 2], [3, 4]], shuffle=False)) == [[[1, 2]], [[3, 4]]]
    assert ds.NumpySlicesDataset([[1, 2], [3, 4]]).output_shapes() == [[2]]
    with pytest.raises(ValueError, match="same number of rows"):
        ds.NumpySlicesDataset({"a": [1, 2], "b": [1]})


def test_mnist_reads_idx(mnist_dir):
    data = ds.MnistDataset(str(mnist_dir), usage="train", shuffle=False)
    assert type(data).__name__ == "MnistDataset"
    assert data.get_col_names() == ["image", "label"] and data.get_dataset_size() == 50
    assert data.output_shapes() == [[28, 28, 1], []]
    assert data.output_types() == [np.dtype("uint8"), np.dtype("uint32")]
    assert data.num_classes() is None
    images = np.fromfile(mnist_dir / "train-images-idx3-ubyte", np.uint8)[16:].reshape(50, 28, 28, 1)
    labels = np.fromfile(mnist_dir / "train-labels-idx1-ubyte", np.uint8)[8:]
    got = list(data.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(np.stack([r[0] for r in got]), images)
    np.testing.assert_array_equal([int(r[1]) for r in got], labels)
    assert ds.MnistDataset(str(mnist_dir)).get_dataset_size() == 70
    assert ds.MnistDataset(str(mnist_dir), usage="test", num_shards=3, shard_id=0).get_dataset_size() == 7
    assert ds.MnistDataset(str(mnist_dir), num_samples=5).get_dataset_size() == 5
    assert ds.FashionMnistDataset(str(mnist_dir), usage="test").get_dataset_size() == 20
    with pytest.raises(ValueError, match="does not exist"):
        ds.MnistDataset(str(mnist_dir / "missing"))
    with pytest.raises(ValueError, match="usage"):
        ds.MnistDataset(str(mnist_dir), usage="bad")


def test_mnist_all_reads_test_files_before_train_files(mnist_dir):
    # MindSpore 2.10 (recorded): usage="all" yields the t10k rows, then the train rows.
    labels = {prefix: np.fromfile(mnist_dir / f"{prefix}-labels-idx1-ubyte", np.uint8)[8:]
              for prefix in ("train", "t10k")}
    got = [int(r[1]) for r in ds.MnistDataset(str(mnist_dir), usage="all", shuffle=False)
           .create_tuple_iterator(output_numpy=True)]
    assert got == labels["t10k"].tolist() + labels["train"].tolist()


def test_builtin_source_refuses_a_sampler_beside_its_options(mnist_dir):
    # MindSpore 2.10 (recorded): a RuntimeError from the source's argument check, for any
    # sampler, whereas GeneratorDataset raises ValueError("Conflicting arguments ...").
    for options, message in ((dict(shuffle=False), "sampler and shuffle cannot"),
                             (dict(num_samples=2), "sampler and num_samples cannot"),
                             (dict(num_shards=2, shard_id=0), "sampler and sharding cannot")):
        with pytest.raises(RuntimeError, match=message):
            ds.MnistDataset(str(mnist_dir), sampler=ds.SequentialSampler(), **options)
        with pytest.raises(RuntimeError, match=message):
            ds.MnistDataset(str(mnist_dir), sampler=[0, 1], **options)
    assert ds.MnistDataset(str(mnist_dir), sampler=ds.SequentialSampler(2, 3)).get_dataset_size() == 3


def test_mnist_tensors_have_mindspore_dtypes(mnist_dir):
    image, label = next(ds.MnistDataset(str(mnist_dir), shuffle=False).create_tuple_iterator())
    assert type(image).__name__ == "Tensor"
    assert str(image.dtype) == "UInt8" and str(label.dtype) == "UInt32"


def test_mnist_reads_the_seed_script_output(tmp_path):
    script = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "seeds",
                          "make_mnist_idx.py")
    if not os.path.exists(script):
        pytest.skip("shared/seeds/make_mnist_idx.py not available")
    subprocess.run([sys.executable, script, str(tmp_path), "--train", "60", "--test", "10"],
                   check=True, capture_output=True, timeout=60)
    data = ds.MnistDataset(str(tmp_path / "train"), shuffle=False)
    assert data.get_dataset_size() == 60 and data.batch(32).get_dataset_size() == 2


def test_cifar10_and_cifar100_binary(tmp_path):
    rng = np.random.default_rng(1)
    records = np.empty((7, 3073), np.uint8)
    records[:, 0] = np.arange(7) % 10
    records[:, 1:] = rng.integers(0, 256, (7, 3072), dtype=np.uint8)
    records[:4].tofile(tmp_path / "data_batch_1.bin")
    records[4:].tofile(tmp_path / "test_batch.bin")
    data = ds.Cifar10Dataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "label"] and data.get_dataset_size() == 4
    image, label = next(data.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(image, records[0, 1:].reshape(3, 32, 32).transpose(1, 2, 0))
    assert image.dtype == np.uint8 and label.dtype == np.uint32
    assert ds.Cifar10Dataset(str(tmp_path)).get_dataset_size() == 7
    fine = np.empty((3, 3074), np.uint8)
    fine[:, 0], fine[:, 1] = [1, 2, 3], [10, 20, 30]
    fine[:, 2:] = 5
    fine.tofile(tmp_path / "train.bin")
    hundred = ds.Cifar100Dataset(str(tmp_path), usage="train", shuffle=False)
    assert hundred.get_col_names() == ["image", "coarse_label", "fine_label"]
    assert [[r[1], r[2]] for r in rows(hundred)] == [[1, 10], [2, 20], [3, 30]]


def test_image_folder(tmp_path):
    from PIL import Image
    rng = np.random.default_rng(2)
    pixels = {}
    for name in ("cat", "dog", "ant"):
        (tmp_path / name).mkdir()
        for i in range(2):
            array = rng.integers(0, 256, (4 + i, 5, 3), dtype=np.uint8)
            Image.fromarray(array).save(tmp_path / name / f"{i}.png")
            pixels[(name, i)] = array
    data = ds.ImageFolderDataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ["image", "label"] and data.get_dataset_size() == 6
    assert data.num_classes() == 3 and data.get_class_indexing() == {"ant": 0, "cat": 1, "dog": 2}
    first = next(data.create_tuple_iterator(output_numpy=True))
    assert first[0].dtype == np.uint8 and first[0].ndim == 1 and first[1].dtype == np.int32
    decoded = rows(ds.ImageFolderDataset(str(tmp_path), shuffle=False, decode=True))
    np.testing.assert_array_equal(np.array(decoded[0][0], np.uint8), pixels[("ant", 0)])
    assert [r[1] for r in decoded] == [0, 0, 1, 1, 2, 2]
    indexed = ds.ImageFolderDataset(str(tmp_path), shuffle=False, class_indexing={"cat": 5, "dog": 1, "ant": 0})
    assert [r[1] for r in rows(indexed)] == [0, 0, 5, 5, 1, 1]
    assert ds.ImageFolderDataset(str(tmp_path), extensions=[".PNG"]).get_dataset_size() == 0


def test_csv_and_text_files(tmp_path):
    (tmp_path / "a.csv").write_text("1,2.5,hello\n3,4.5,world\n5,,x\n")
    csv_rows = rows(ds.CSVDataset(str(tmp_path / "a.csv"), column_names=["a", "b", "c"], shuffle=False))
    assert csv_rows == [["1", "2.5", "hello"], ["3", "4.5", "world"], ["5", "", "x"]]
    typed = next(ds.CSVDataset(str(tmp_path / "a.csv"), column_defaults=[0, 0.0, ""],
                               column_names=["a", "b", "c"], shuffle=False)
                 .create_tuple_iterator(output_numpy=True))
    assert [x.dtype for x in typed] == [np.int32, np.float32, np.dtype("<U5")]
    assert ds.CSVDataset(str(tmp_path / "a.csv"), shuffle=False).get_col_names() == ["1", "2.5", "hello"]
    (tmp_path / "t.txt").write_text("line one\nline two\n\nline four\n")
    text = ds.TextFileDataset(str(tmp_path / "t.txt"), shuffle=False)
    assert rows(text) == [["line one"], ["line two"], ["line four"]] and text.get_col_names() == ["text"]
    assert rows(ds.TextFileDataset(str(tmp_path / "t.txt"), shuffle=False, num_shards=3, shard_id=2)) == \
        [["line four"]]


def test_padded_and_fake_image_datasets():
    padded = ds.PaddedDataset([{"image": np.zeros(2, np.uint8), "label": np.array(1)},
                               {"image": np.ones(2, np.uint8), "label": np.array(2)}])
    assert padded.get_col_names() == ["image", "label"]
    assert rows(padded) == [[[0, 0], 1], [[1, 1], 2]]
    fake = ds.FakeImageDataset(10, (4, 4, 3), 3, 0)
    assert fake.get_col_names() == ["image", "label"]
    assert [x.dtype for x in next(fake.create_tuple_iterator(output_numpy=True))] == [np.uint8, np.uint32]
