"""Seeded random kernels (images, spectrograms, boxes) recorded on MindSpore 2.10
(``tests/fixtures/dataset/seeded_kernels_oracle.npz``, by
``tests/fixtures/dataset/record_seeded_draws_oracle.py``); the same code runs them on sporax and MindSpore.

Each case runs eagerly (six calls under ``set_seed(3)``) and in a seeded map with 1 and 2 workers (two epochs of
six rows from a generator that yields fresh copies: MindSpore's box kernels change their input in place).
"""
import numpy as np

IMAGE_CASES = {
    "RandomColor": "vision.RandomColor((0.5, 1.5))",
    "RandomLighting": "vision.RandomLighting(0.1)",
    "CutOut": "vision.CutOut(4, 2)",
    "UniformAugment": "vision.UniformAugment([vision.RandomCrop(12), vision.RandomHorizontalFlip(1.0), "
                      "vision.Invert()], 2)",
    "RandomSelectSubpolicy": "vision.RandomSelectSubpolicy([[(vision.Invert(), 0.5), "
                             "(vision.RandomHorizontalFlip(), 0.5)], [(vision.Equalize(), 0.7)]])",
    # Python in MindSpore: its random transforms run eagerly, repeating their draws every call.
    "RandomOrder": "transforms.RandomOrder([vision.Invert(), vision.HorizontalFlip(), vision.RandomCrop(10)])",
}
BOX_CASES = {
    "RandomHorizontalFlipWithBBox": "vision.RandomHorizontalFlipWithBBox()",
    "RandomVerticalFlipWithBBox": "vision.RandomVerticalFlipWithBBox()",
    "RandomResizeWithBBox": "vision.RandomResizeWithBBox(8)",
    "RandomResizedCropWithBBox": "vision.RandomResizedCropWithBBox(8)",
    "RandomCropWithBBox": "vision.RandomCropWithBBox(10)",
    "BoundingBoxAugment": "vision.BoundingBoxAugment(vision.RandomVerticalFlip(0.5), 0.6)",
}
AUDIO_CASES = {
    "FrequencyMasking": "audio.FrequencyMasking(True, 4)",
    "TimeMasking": "audio.TimeMasking(True, 5)",
    "MaskAlongAxisIID": "audio.MaskAlongAxisIID(5, 0.5, 2)",
    "Dither RPDF": "audio.Dither(audio.DensityFunction.RPDF, False)",
    "Dither GPDF": "audio.Dither(audio.DensityFunction.GPDF, True)",
}
BOXES = np.array([[1, 2, 5, 4, 0], [3, 3, 6, 7, 1], [10, 8, 3, 3, 2]], np.float32)


def images():
    return np.random.default_rng(0).integers(0, 256, (6, 12, 14, 3), dtype=np.uint8)


def spectrograms():
    return np.random.default_rng(0).random((6, 16, 20), dtype=np.float32)


def _operation(dataset, vision, name):
    from importlib import import_module

    audio, transforms = import_module(dataset.__name__ + ".audio"), import_module(dataset.__name__ + ".transforms")
    cases = {**IMAGE_CASES, **AUDIO_CASES, **BOX_CASES}
    return eval(cases[name], {"vision": vision, "audio": audio, "transforms": transforms})


def _inputs(name):
    return spectrograms() if name in AUDIO_CASES else images()


def _flat(values):
    # Every output is uint8 or float32 (box counts are small ints): float32 holds them exactly.
    return np.concatenate([np.asarray(value, np.float32).reshape(-1) for value in values])


def run_eager(dataset, vision, name):
    """Six eager calls of image or audio case ``name`` under seed 3, flattened."""
    dataset.config.set_seed(3)
    operation = _operation(dataset, vision, name)
    return _flat([operation(item) for item in _inputs(name)])


def run_map(dataset, vision, name, workers):
    """Two epochs of a seeded map of case ``name`` (image or box case), every output flattened in order."""
    pixels = _inputs(name)
    boxed = name in BOX_CASES

    def rows():
        for image in pixels:
            yield (image.copy(), BOXES.copy()) if boxed else (image.copy(),)

    dataset.config.set_seed(3)
    columns = ["image", "bbox"] if boxed else ["image"]
    operation = _operation(dataset, vision, name)
    data = dataset.GeneratorDataset(rows, columns, shuffle=False).map(operation, columns,
                                                                      num_parallel_workers=workers)
    iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    # Box counts vary by row: each row's box count goes first so equal flattened arrays mean equal rows.
    return _flat([value for _ in range(2) for row in iterator
                  for value in ([len(row[1])] if boxed else []) + list(row)])


def keys():
    """Every recorded (key, runner) pair."""
    eager = list(IMAGE_CASES) + list(AUDIO_CASES)
    out = [(f"{name}/eager", lambda d, v, name=name: run_eager(d, v, name)) for name in eager]
    for name in list(IMAGE_CASES) + list(AUDIO_CASES) + list(BOX_CASES):
        for workers in (1, 2):
            out.append((f"{name}/map{workers}", lambda d, v, name=name, w=workers: run_map(d, v, name, w)))
    return out
