"""The MixUpBatch/CutMixBatch cases recorded on MindSpore 2.10 (``tests/fixtures/dataset/batch_mixing_oracle.npz``,
by ``tests/fixtures/dataset/record_seeded_draws_oracle.py``); the same code runs them on sporax and MindSpore.

A case is (kind, seed, batch size, alpha, prob, layout, image dtype, labels): labels 2 is int32 <N, C>, 3 is
int32 <N, L, C> (two labels a row), a dtype name is <N, C> of that dtype. Every third case has 1 channel.
"""
import numpy as np


def cases():
    """All recorded cases: each batch size and alpha under several seeds, then the dtype/layout variants."""
    out = []
    for seed in (1, 7):
        for size in (1, 2, 5):
            for alpha in (1.0, 0.2, 2.5):
                out.append(("mixup", seed, size, alpha, None, "NHWC", "uint8", 2))
                out.append(("cutmix", seed, size, alpha, 1.0, "NHWC", "uint8", 2))
                out.append(("cutmix", seed, size, alpha, 0.5, "NCHW", "uint8", 2))
    for seed in (3, 11):
        out.append(("mixup", seed, 4, 0.7, None, "NHWC", "float32", 2))
        out.append(("mixup", seed, 4, 0.7, None, "NHWC", "uint8", 3))
        out.append(("mixup", seed, 4, 0.7, None, "NCHW", "uint8", 2))
        out.append(("cutmix", seed, 4, 0.7, 0.8, "NHWC", "float32", 3))
        out.append(("cutmix", seed, 6, 3.0, 0.0, "NHWC", "uint8", 2))
        out.append(("mixup", seed, 4, 1.0, None, "NHWC", "uint8", "int64"))
        out.append(("cutmix", seed, 4, 1.0, 1.0, "NCHW", "uint8", "uint8"))
    return out


def inputs(case, index):
    """The images and one-hot labels of case number ``index``."""
    _, _, size, _, _, layout, dtype, labels = case
    rng = np.random.default_rng(index)
    shape = (size, 6, 9, 3) if layout == "NHWC" else (size, 3, 6, 9)
    if index % 3 == 0:
        shape = (size, 5, 5, 1) if layout == "NHWC" else (size, 1, 7, 4)
    images = rng.integers(0, 256, shape).astype(dtype)
    if dtype == "float32":
        images = images + rng.random(shape, dtype=np.float32)
    label_dtype = "int32" if labels in (2, 3) else labels
    hot = np.eye(5, dtype=label_dtype)[rng.integers(0, 5, size)]
    if labels == 3:
        hot = np.stack([hot, np.eye(5, dtype=label_dtype)[rng.integers(0, 5, size)]], 1)
    return images, hot


def run_case(dataset, vision, case, index):
    """Case ``index`` run eagerly under its seed on ``dataset``/``vision`` (sporax's or MindSpore's)."""
    kind, seed, _, alpha, prob, layout, _, _ = case
    dataset.config.set_seed(seed)
    if kind == "mixup":
        operation = vision.MixUpBatch(alpha)
    else:
        operation = vision.CutMixBatch(getattr(vision.ImageBatchFormat, layout), alpha, prob)
    return operation(*inputs(case, index))


def run_pipeline(dataset, vision, kind, workers):
    """Two epochs of 10 rows batched by 2 through a seeded map of MixUpBatch(0.5) or CutMixBatch(NHWC, 0.5, 0.7),
    each batch flattened (images then labels) into one float32 row."""
    rng = np.random.default_rng(3)
    images = rng.integers(0, 256, (10, 4, 5, 3), dtype=np.uint8)
    labels = np.eye(4, dtype=np.int32)[rng.integers(0, 4, 10)]
    dataset.config.set_seed(5)
    data = dataset.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(2)
    if kind == "mixup":
        operation = vision.MixUpBatch(0.5)
    else:
        operation = vision.CutMixBatch(vision.ImageBatchFormat.NHWC, 0.5, 0.7)
    options = {} if workers is None else {"num_parallel_workers": workers}
    data = data.map(operation, input_columns=["image", "label"], **options)
    iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    rows = []
    for _ in range(2):
        for image, label in iterator:
            rows.append(np.concatenate([image.reshape(-1).astype(np.float32), label.reshape(-1)]))
    return np.stack(rows)


PIPELINES = [(kind, workers) for kind in ("mixup", "cutmix") for workers in (None, 1, 2)]
