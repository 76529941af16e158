"""Throughput of image pipelines: sporax.dataset vs MindSpore 2.10, images/s with 1 and 2 workers.

Two workloads, each written once against the shared API and run by both libraries on the same data:

* ``cifar``: 32x32x3 uint8 images (NumpySlicesDataset) -> RandomCrop(32, padding=4) ->
  RandomHorizontalFlip -> Rescale(1/255, 0) -> Normalize(mean, std) -> HWC2CHW -> batch(128).
* ``mnist``: the LeNet pipeline of seed003 (``create_dataset``): MnistDataset (IDX files) ->
  TypeCast(int32) on the labels -> Resize((32, 32), LINEAR) -> Rescale(1/255, 0) ->
  Rescale(1/0.3081, -0.1307/0.3081) -> HWC2CHW -> shuffle(10000) -> batch(32, drop_remainder).

    python benchmarks/dataset_pipeline.py
    python benchmarks/dataset_pipeline.py --mindspore-python /tmp/ms/bin/python
    python benchmarks/dataset_pipeline.py --workload mnist --mnist-dir DIR/train   # real IDX files,
        # e.g. written by ../shared/seeds/make_mnist_idx.py DIR --train 6000 --test 100

With ``--mindspore-python`` the same pipelines run under MindSpore in a subprocess on the same
data and the ratio sporax / MindSpore is printed. Every figure is the best of ``--epochs`` timed
passes after one warm-up pass; with ``--rounds`` > 1 the two libraries take turns that many times
and the best of all rounds is kept (useful on a shared, loaded machine). The load average seen
before and after is printed, since it bounds how meaningful the figures are.
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

MEAN = [0.4914 * 255, 0.4822 * 255, 0.4465 * 255]
STD = [0.2470 * 255, 0.2435 * 255, 0.2616 * 255]


def build_cifar(ds, vision, transforms, int32, data_path, workers):
    """The CIFAR-style augmentation pipeline, written once for both libraries (same API)."""
    images = np.load(data_path)
    labels = np.arange(len(images), dtype=np.int32) % 10
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
    operations = [
        vision.RandomCrop(32, padding=4),
        vision.RandomHorizontalFlip(),
        vision.Rescale(1.0 / 255.0, 0.0),
        vision.Normalize(mean=[m / 255 for m in MEAN], std=[s / 255 for s in STD]),
        vision.HWC2CHW(),
    ]
    data = data.map(operations=operations, input_columns="image", num_parallel_workers=workers)
    return data.batch(128, drop_remainder=False)


def build_mnist(ds, vision, transforms, int32, data_path, workers):
    """seed003's ``create_dataset`` (LeNet on MNIST), with ``num_parallel_workers=workers``."""
    data = ds.MnistDataset(data_path)
    data = data.map(input_columns="label", operations=transforms.TypeCast(int32), num_parallel_workers=workers)
    data = data.map(input_columns="image", operations=vision.Resize((32, 32), interpolation=vision.Inter.LINEAR),
                    num_parallel_workers=workers)
    data = data.map(input_columns="image", operations=vision.Rescale(1.0 / 255.0, 0.0), num_parallel_workers=workers)
    data = data.map(input_columns="image", operations=vision.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081),
                    num_parallel_workers=workers)
    data = data.map(input_columns="image", operations=vision.HWC2CHW(), num_parallel_workers=workers)
    data = data.shuffle(buffer_size=10000)
    return data.batch(32, drop_remainder=True)


WORKLOADS = {
    "cifar": (build_cifar, (3, 32, 32), "32x32x3 uint8 -> RandomCrop(pad 4) + RandomHorizontalFlip + Rescale + "
                                        "Normalize + HWC2CHW -> batch 128"),
    "mnist": (build_mnist, (1, 32, 32), "seed003 LeNet MNIST: TypeCast + Resize(32, LINEAR) + Rescale x2 + HWC2CHW "
                                        "-> shuffle(10000) -> batch 32 (drop_remainder)"),
}


def measure(pipeline, shape, epochs):
    """Images per second of the best of ``epochs`` full passes (after one warm-up pass)."""
    rates = []
    for epoch in range(epochs + 1):
        start = time.perf_counter()
        count = 0
        for image, _ in pipeline.create_tuple_iterator(output_numpy=True, num_epochs=1):
            assert image.shape[1:] == shape and image.dtype == np.float32
            count += image.shape[0]
        elapsed = time.perf_counter() - start
        if epoch:  # the first pass warms caches and imports
            rates.append(count / elapsed)
    return max(rates)


def run(library, workload, data_path, workers_list, epochs):
    """Measure every worker count with ``library`` ('sporax' or 'mindspore'); returns {workers: rate}."""
    if library == "mindspore":
        import mindspore.dataset as ds
        import mindspore.dataset.transforms as transforms
        import mindspore.dataset.vision as vision
        from mindspore import int32
    else:
        import sporax.dataset as ds
        import sporax.dataset.transforms as transforms
        import sporax.dataset.vision as vision
        from sporax.core.dtype import int32
    build, shape, _ = WORKLOADS[workload]
    return {workers: measure(build(ds, vision, transforms, int32, data_path, workers), shape, epochs)
            for workers in workers_list}


def write_idx(folder, count, seed=0):
    """Synthetic MNIST-format IDX files (28x28 uint8 digits-like blobs, labels 0..9) in ``folder``."""
    rng = np.random.default_rng(seed)
    images = np.zeros((count, 28, 28), np.uint8)
    yy, xx = np.mgrid[:28, :28]
    centres = rng.uniform(9, 19, (count, 2, 3))
    for k in range(3):  # three soft strokes per image: realistic sparsity, any content does for timing
        distance = (yy - centres[:, 0, k, None, None]) ** 2 + (xx - centres[:, 1, k, None, None]) ** 2
        images = np.maximum(images, (255 * np.exp(-distance / 8.0)).astype(np.uint8))
    labels = rng.integers(0, 10, count).astype(np.uint8)
    with open(os.path.join(folder, "train-images-idx3-ubyte"), "wb") as stream:
        stream.write(struct.pack(">IIII", 2051, count, 28, 28) + images.tobytes())
    with open(os.path.join(folder, "train-labels-idx1-ubyte"), "wb") as stream:
        stream.write(struct.pack(">II", 2049, count) + labels.tobytes())


def run_mindspore(python, workload, data_path, workers, epochs):
    """The MindSpore figures from a subprocess, or None (with a note) if it cannot run."""
    if not os.path.exists(python):
        print(f"note: {python} not found; MindSpore not measured.")
        return None
    command = [python, os.path.abspath(__file__), "--only", "mindspore", "--workload", workload,
               "--data", data_path, "--epochs", str(epochs), "--workers", *map(str, workers)]
    done = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, GLOG_v="3"), check=False)
    if done.returncode != 0:
        print(f"MindSpore run failed:\n{done.stderr[-2000:]}")
        return None
    last = [line for line in done.stdout.splitlines() if line.startswith("{")][-1]
    return {int(k): v for k, v in json.loads(last).items()}


def best_of(results):
    """{workers: best rate} over rounds (None where a library did not run)."""
    results = [r for r in results if r]
    if not results:
        return None
    return {workers: max(r[workers] for r in results) for workers in results[0]}


def report(workload, count, sporax_rates, mindspore_rates, workers_list):
    print(f"\n{workload}: {count} images, {WORKLOADS[workload][2]}")
    header = f"{'workers':>8} {'sporax img/s':>14}"
    if mindspore_rates:
        header += f" {'MindSpore img/s':>16} {'ratio':>7}"
    print(header)
    for workers in workers_list:
        line = f"{workers:>8} {sporax_rates[workers]:>14.0f}"
        if mindspore_rates:
            line += f" {mindspore_rates[workers]:>16.0f} {sporax_rates[workers] / mindspore_rates[workers]:>6.2f}x"
        print(line)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=["cifar", "mnist", "all"], default="all")
    parser.add_argument("--num-images", type=int, default=10000, help="images of the cifar workload")
    parser.add_argument("--mnist-images", type=int, default=6000, help="synthetic MNIST images (no --mnist-dir)")
    parser.add_argument("--mnist-dir", default=None, help="a folder with train-images-idx3-ubyte etc.")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--epochs", type=int, default=3, help="timed passes (best is reported), after one warm-up")
    parser.add_argument("--rounds", type=int, default=1, help="sporax/MindSpore turns; the best round is kept")
    parser.add_argument("--mindspore-python", default=None,
                        help="Python of an environment with MindSpore 2.10 (e.g. /tmp/ms/bin/python)")
    parser.add_argument("--only", choices=["sporax", "mindspore"], default=None, help=argparse.SUPPRESS)
    parser.add_argument("--data", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.only:  # child mode: measure one library on the given data, print JSON
        workload = "cifar" if args.workload == "all" else args.workload
        rates = run(args.only, workload, args.data, args.workers, args.epochs)
        print(json.dumps({str(k): v for k, v in rates.items()}))
        return 0

    workloads = ["cifar", "mnist"] if args.workload == "all" else [args.workload]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        data, counts = {}, {}
        if "cifar" in workloads:
            data["cifar"] = os.path.join(folder, "images.npy")
            images = np.random.default_rng(0).integers(0, 256, (args.num_images, 32, 32, 3), dtype=np.uint8)
            np.save(data["cifar"], images)
            counts["cifar"] = args.num_images
        if "mnist" in workloads:
            if args.mnist_dir:
                data["mnist"] = args.mnist_dir
                with open(os.path.join(args.mnist_dir, "train-labels-idx1-ubyte"), "rb") as stream:
                    counts["mnist"] = struct.unpack(">II", stream.read(8))[1]
            else:
                data["mnist"] = os.path.join(folder, "mnist")
                os.makedirs(data["mnist"])
                write_idx(data["mnist"], args.mnist_images)
                counts["mnist"] = args.mnist_images
        results = {}
        for workload in workloads:
            sporax_rounds, mindspore_rounds = [], []
            for _ in range(max(1, args.rounds)):
                sporax_rounds.append(run("sporax", workload, data[workload], args.workers, args.epochs))
                if args.mindspore_python:
                    mindspore_rounds.append(run_mindspore(args.mindspore_python, workload, data[workload],
                                                          args.workers, args.epochs))
            results[workload] = best_of(sporax_rounds), best_of(mindspore_rounds)
    load_after = os.getloadavg()

    print(f"dataset pipelines on {os.cpu_count()} CPUs; best of {args.epochs} passes x {max(1, args.rounds)} "
          f"round(s); load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    for workload in workloads:
        report(workload, counts[workload], *results[workload], args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
