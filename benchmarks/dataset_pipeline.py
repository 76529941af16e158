"""Throughput of the CIFAR-style image pipeline: sporax.dataset vs MindSpore 2.10.

Pipeline: 32x32x3 uint8 images -> RandomCrop(32, padding=4) -> RandomHorizontalFlip ->
Rescale(1/255, 0) -> Normalize(mean, std) -> HWC2CHW -> batch(128), with 1 and 2 map workers.

    python benchmarks/dataset_pipeline.py
    python benchmarks/dataset_pipeline.py --mindspore-python /tmp/ms/bin/python

With ``--mindspore-python`` the same pipeline runs under MindSpore in a subprocess on the same
images (saved to a temporary .npy file) and the ratio sporax / MindSpore is printed.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

MEAN = [0.4914 * 255, 0.4822 * 255, 0.4465 * 255]
STD = [0.2470 * 255, 0.2435 * 255, 0.2616 * 255]


def build_pipeline(ds, vision, images, labels, workers, batch_size):
    """The benchmark pipeline, written once for both libraries (same API)."""
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
    operations = [
        vision.RandomCrop(32, padding=4),
        vision.RandomHorizontalFlip(),
        vision.Rescale(1.0 / 255.0, 0.0),
        vision.Normalize(mean=[m / 255 for m in MEAN], std=[s / 255 for s in STD]),
        vision.HWC2CHW(),
    ]
    data = data.map(operations=operations, input_columns="image", num_parallel_workers=workers)
    return data.batch(batch_size, drop_remainder=False)


def measure(ds, vision, images, labels, workers, batch_size, epochs):
    """Images per second of the best of ``epochs`` full passes (after one warm-up pass)."""
    pipeline = build_pipeline(ds, vision, images, labels, workers, batch_size)
    rates = []
    for epoch in range(epochs + 1):
        start = time.perf_counter()
        count = 0
        for image, _ in pipeline.create_tuple_iterator(output_numpy=True, num_epochs=1):
            assert image.shape[1:] == (3, 32, 32) and image.dtype == np.float32
            count += image.shape[0]
        elapsed = time.perf_counter() - start
        if epoch:  # the first pass warms caches and imports
            rates.append(count / elapsed)
    return max(rates)


def run(library, data_path, workers_list, batch_size, epochs):
    """Measure every worker count with ``library`` ('sporax' or 'mindspore'); returns {workers: rate}."""
    if library == "mindspore":
        import mindspore.dataset as ds
        import mindspore.dataset.vision as vision
    else:
        import sporax.dataset as ds
        import sporax.dataset.vision as vision
    images = np.load(data_path)
    labels = np.arange(len(images), dtype=np.int32) % 10
    return {workers: measure(ds, vision, images, labels, workers, batch_size, epochs) for workers in workers_list}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-images", type=int, default=10000)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--epochs", type=int, default=3, help="timed passes (best is reported), after one warm-up")
    parser.add_argument("--mindspore-python", default=None,
                        help="Python of an environment with MindSpore 2.10 (e.g. /tmp/ms/bin/python)")
    parser.add_argument("--only", choices=["sporax", "mindspore"], default=None, help=argparse.SUPPRESS)
    parser.add_argument("--data", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.only:  # child mode: measure one library on the given data, print JSON
        rates = run(args.only, args.data, args.workers, args.batch_size, args.epochs)
        print(json.dumps({str(k): v for k, v in rates.items()}))
        return 0

    images = np.random.default_rng(0).integers(0, 256, (args.num_images, 32, 32, 3), dtype=np.uint8)
    with tempfile.TemporaryDirectory() as folder:
        data_path = os.path.join(folder, "images.npy")
        np.save(data_path, images)
        sporax_rates = run("sporax", data_path, args.workers, args.batch_size, args.epochs)
        mindspore_rates = None
        if args.mindspore_python:
            if not os.path.exists(args.mindspore_python):
                print(f"note: {args.mindspore_python} not found; MindSpore not measured.")
            else:
                command = [args.mindspore_python, os.path.abspath(__file__), "--only", "mindspore", "--data", data_path,
                           "--batch-size", str(args.batch_size), "--epochs", str(args.epochs),
                           "--workers", *map(str, args.workers)]
                env = dict(os.environ, GLOG_v="3")
                done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
                if done.returncode != 0:
                    print(f"MindSpore run failed:\n{done.stderr[-2000:]}")
                else:
                    last = [line for line in done.stdout.splitlines() if line.startswith("{")][-1]
                    mindspore_rates = {int(k): v for k, v in json.loads(last).items()}

    print(f"dataset pipeline: {args.num_images} images 32x32x3, batch {args.batch_size}, "
          f"RandomCrop(pad 4) + RandomHorizontalFlip + Rescale + Normalize + HWC2CHW")
    header = f"{'workers':>8} {'sporax img/s':>14}"
    if mindspore_rates:
        header += f" {'MindSpore img/s':>16} {'ratio':>7}"
    print(header)
    for workers in args.workers:
        line = f"{workers:>8} {sporax_rates[workers]:>14.0f}"
        if mindspore_rates:
            line += f" {mindspore_rates[workers]:>16.0f} {sporax_rates[workers] / mindspore_rates[workers]:>6.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
