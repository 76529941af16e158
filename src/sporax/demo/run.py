"""``sporax demo``: train LeNet5 on handwritten digits with ``Model.train`` and plot the curves.

The digits scikit-learn ships are written as MNIST IDX files, read back with ``MnistDataset``,
and trained in sink mode with ModelCheckpoint and a progress bar; the run prints the test
accuracy and writes ``loss_curve.png`` and the checkpoint into the output folder.
"""
import argparse
import os
import time

import sporax as ms
from sporax import dataset, nn
from sporax.dataset import transforms, vision
from sporax.demo.digits import write_digits
from sporax.demo.lenet import LeNet5
from sporax.train import CheckpointConfig, History, Model, ModelCheckpoint, ProgressBar

DEFAULT_DATA = os.path.join(os.path.expanduser("~"), ".cache", "sporax", "digits-mnist")


def add_arguments(parser):
    """The demo's options (shared by ``sporax demo`` and ``python -m sporax.demo.run``)."""
    parser.add_argument("--epochs", type=int, default=30, help="training epochs (default 30)")
    parser.add_argument("--batch-size", type=int, default=32, help="batch size (default 32)")
    parser.add_argument("--lr", type=float, default=0.02, help="Momentum learning rate (default 0.02)")
    parser.add_argument("--mode", choices=["graph", "pynative"], default="graph",
                        help="MindSpore execution mode (default graph)")
    parser.add_argument("--no-sink", action="store_true", help="train step by step instead of sink mode")
    parser.add_argument("--output-dir", default="sporax-demo", help="where the plot and checkpoint go")
    parser.add_argument("--data-dir", default=DEFAULT_DATA, help="where the IDX files are cached")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    return parser


def create_dataset(data_dir, usage, batch_size, shuffle):
    """MnistDataset -> resize to 32x32, scale, normalise, CHW, int32 labels, batches."""
    data = dataset.MnistDataset(data_dir, usage=usage, shuffle=shuffle)
    data = data.map([vision.Resize((32, 32)), vision.Rescale(1.0 / 255.0, 0.0),
                     vision.Normalize(mean=[0.1307], std=[0.3081]), vision.HWC2CHW()], input_columns="image")
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(batch_size, drop_remainder=usage == "train")


def plot(history, path):
    """Train loss, test loss and test accuracy per epoch, in one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = history.epoch["epoch"]  # MindSpore's History keeps {"epoch": [1, 2, ...]}
    figure, loss_axis = plt.subplots(figsize=(7, 4.2), dpi=110)
    loss_axis.plot(epochs, history.history["net_output"], "o-", color="tab:blue", label="train loss (last step)")
    loss_axis.plot(epochs, history.history["loss"], "s-", color="tab:cyan", label="test loss")
    loss_axis.set_xlabel("epoch")
    loss_axis.set_ylabel("loss")
    loss_axis.set_yscale("log")
    accuracy_axis = loss_axis.twinx()
    accuracy_axis.plot(epochs, [100 * a for a in history.history["accuracy"]], "^-", color="tab:red",
                       label="test accuracy")
    accuracy_axis.set_ylabel("test accuracy (%)")
    accuracy_axis.set_ylim(0, 100)
    lines = loss_axis.get_legend_handles_labels()
    more = accuracy_axis.get_legend_handles_labels()
    loss_axis.legend(lines[0] + more[0], lines[1] + more[1], loc="center right")
    loss_axis.set_title("sporax demo: LeNet5 on handwritten digits")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv=None):
    """Parse ``argv`` and run the demo; returns the exit status."""
    parser = argparse.ArgumentParser(prog="sporax demo", description=__doc__.splitlines()[0])
    return run(add_arguments(parser).parse_args(argv))


def run(args):
    """Train, evaluate and plot; returns the exit status."""
    started = time.perf_counter()

    ms.set_seed(args.seed)
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    write_digits(args.data_dir)
    os.makedirs(args.output_dir, exist_ok=True)
    train = create_dataset(args.data_dir, "train", args.batch_size, shuffle=True)
    test = create_dataset(args.data_dir, "test", 256, shuffle=False)
    steps = train.get_dataset_size()

    network = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(network.trainable_params(), learning_rate=args.lr, momentum=0.9)
    model = Model(network, loss, optimizer, metrics={"accuracy", "loss"})
    history = History()
    checkpoint = ModelCheckpoint(prefix="lenet5", directory=args.output_dir,
                                 config=CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=1))
    print(f"sporax demo: {steps * args.batch_size} training digits, {test.get_dataset_size()} test batches, "
          f"{args.epochs} epochs, {args.mode} mode, {'step by step' if args.no_sink else 'sink mode'}")
    model.fit(args.epochs, train, test, callbacks=[ProgressBar(), history, checkpoint],
              dataset_sink_mode=not args.no_sink)
    accuracy = model.eval(test)["accuracy"]
    picture = os.path.join(args.output_dir, "loss_curve.png")
    plot(history, picture)
    print(f"test accuracy: {accuracy:.4f}")
    print(f"checkpoint: {checkpoint.latest_ckpt_file_name}")
    print(f"curves: {picture}")
    print(f"total time: {time.perf_counter() - started:.1f} s")
    return 0 if accuracy > 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
