"""Seeded random kernels recorded on MindSpore 2.10 (``tests/fixtures/dataset/seeded_kernels_oracle.npz``, by
``tests/fixtures/dataset/record_seeded_kernels_oracle.py``); the same code runs them on sporax and MindSpore.

Each case runs eagerly (six calls under ``set_seed(3)``) and in a seeded map with 1 and 2 workers (two epochs of
six rows from a generator that yields fresh copies: MindSpore's box kernels change their input in place).
"""
import numpy as np

IMAGE_CASES = {
    "RandomColor": "vision.RandomColor((0.5, 1.5))",
    "RandomLighting": "vision.RandomLighting(0.1)",
    "CutOut": "vision.CutOut(4, 2)",
}
BOX_CASES = {
    "RandomHorizontalFlipWithBBox": "vision.RandomHorizontalFlipWithBBox()",
    "RandomVerticalFlipWithBBox": "vision.RandomVerticalFlipWithBBox()",
    "RandomResizeWithBBox": "vision.RandomResizeWithBBox(8)",
    "RandomResizedCropWithBBox": "vision.RandomResizedCropWithBBox(8)",
    "RandomCropWithBBox": "vision.RandomCropWithBBox(10)",
}
BOXES = np.array([[1, 2, 5, 4, 0], [3, 3, 6, 7, 1], [10, 8, 3, 3, 2]], np.float32)


def images():
    return np.random.default_rng(0).integers(0, 256, (6, 12, 14, 3), dtype=np.uint8)


def _flat(values):
    return np.concatenate([np.asarray(value, np.float64).reshape(-1) for value in values])


def run_eager(dataset, vision, name):
    """Six eager calls of image case ``name`` under seed 3, flattened."""
    dataset.config.set_seed(3)
    operation = eval(IMAGE_CASES[name], {"vision": vision})
    return _flat([operation(image) for image in images()])


def run_map(dataset, vision, name, workers):
    """Two epochs of a seeded map of case ``name`` (image or box case), every output flattened in order."""
    pixels = images()
    boxed = name in BOX_CASES

    def rows():
        for image in pixels:
            yield (image.copy(), BOXES.copy()) if boxed else (image.copy(),)

    dataset.config.set_seed(3)
    columns = ["image", "bbox"] if boxed else ["image"]
    operation = eval((BOX_CASES if boxed else IMAGE_CASES)[name], {"vision": vision})
    data = dataset.GeneratorDataset(rows, columns, shuffle=False).map(operation, columns,
                                                                      num_parallel_workers=workers)
    iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    # Box counts vary by row: each row's box count goes first so equal flattened arrays mean equal rows.
    return _flat([value for _ in range(2) for row in iterator
                  for value in ([len(row[1])] if boxed else []) + list(row)])


def keys():
    """Every recorded (key, runner) pair."""
    out = [(f"{name}/eager", lambda d, v, name=name: run_eager(d, v, name)) for name in IMAGE_CASES]
    for name in list(IMAGE_CASES) + list(BOX_CASES):
        for workers in (1, 2):
            out.append((f"{name}/map{workers}", lambda d, v, name=name, w=workers: run_map(d, v, name, w)))
    return out
