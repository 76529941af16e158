"""Train a small MLP with MindSpore's functional training loop; run it with `sporax run`.

A plain MindSpore 2.x script: it imports `mindspore`, builds a network from `nn.Cell`s, takes
gradients with `ms.value_and_grad` and compiles the training step with `ms.jit`. The data is a
synthetic two-class problem (points inside or outside a circle), so nothing is downloaded.

    sporax run examples/train_mlp.py [--epochs 10] [--batch-size 64]
"""
import argparse

import numpy as np

import mindspore as ms
from mindspore import nn, ops


def make_data(count, seed):
    """Points in [-1, 1]^2, labelled 1 inside the circle of radius 0.7 and 0 outside."""
    rng = np.random.default_rng(seed)
    points = rng.uniform(-1.0, 1.0, size=(count, 2)).astype(np.float32)
    labels = (np.sum(points ** 2, axis=1) < 0.49).astype(np.int32)
    return points, labels


class MLP(nn.Cell):
    def __init__(self, hidden=32):
        super().__init__()
        self.body = nn.SequentialCell(
            nn.Dense(2, hidden), nn.ReLU(),
            nn.Dense(hidden, hidden), nn.ReLU(),
            nn.Dense(hidden, 2),
        )

    def construct(self, x):
        return self.body(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()

    ms.set_seed(0)
    train_x, train_y = make_data(2048, seed=0)
    test_x, test_y = make_data(512, seed=1)

    net = MLP()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)

    def forward(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    steps = len(train_x) // args.batch_size
    for epoch in range(1, args.epochs + 1):
        net.set_train(True)
        order = np.random.default_rng(epoch).permutation(len(train_x))
        total = 0.0
        for step in range(steps):
            batch = order[step * args.batch_size:(step + 1) * args.batch_size]
            loss = train_step(ms.Tensor(train_x[batch]), ms.Tensor(train_y[batch]))
            total += float(loss.asnumpy())
        net.set_train(False)
        predicted = ops.argmax(net(ms.Tensor(test_x)), dim=1).asnumpy()
        accuracy = float(np.mean(predicted == test_y))
        print(f"epoch {epoch:2d}  loss {total / steps:.4f}  test accuracy {accuracy:.3f}")


if __name__ == "__main__":
    main()
