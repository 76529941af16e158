"""A backbone shared by the training step and an evaluation that calls ``set_train(False)`` on it (a Unet trained with
an eval callback): in GRAPH_MODE the training step keeps the graph compiled in its own phase, BatchNorm in training
mode, as MindSpore's; in PyNative the flag takes effect at once and BatchNorm trains on its moving statistics.

The expected values came from MindSpore 2.10 (CPU, /tmp/ms) running the same code (/tmp/zoo26/backbone_probe.py).
"""
import numpy as np

import sporax as ms
from sporax import Tensor, dataset, nn, ops
from sporax.train import Callback, Model

rng = np.random.RandomState(0)
X = rng.randn(8, 4).astype(np.float32)
Y = rng.randn(8, 2).astype(np.float32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 6, weight_init=Tensor(np.sin(np.arange(24, dtype=np.float32)).reshape(6, 4)),
                            bias_init="zeros")
        self.bn = nn.BatchNorm1d(6)
        self.fc2 = nn.Dense(6, 2, weight_init=Tensor(np.cos(np.arange(12, dtype=np.float32)).reshape(2, 6)),
                            bias_init="zeros")

    def construct(self, x):
        return self.fc2(ops.relu(self.bn(self.fc1(x))))


# six steps, the backbone's evaluation loss after the third, then BatchNorm's moving mean
STEPS = {
    "graph": [1.6006667613983154, 1.1136791706085205, 0.7422880530357361, 1.1098875999450684, 0.641474723815918,
              0.6433417797088623, 0.5960332155227661, 0.06782464683055878, -0.3308632969856262, 0.13480032980442047,
              0.17801900207996368, -0.31454193592071533, 0.28645461797714233],
    "pynative": [1.6006667613983154, 1.1136791706085205, 0.7422880530357361, 1.1098875999450684, 1.1098875999450684,
                 0.6587334275245667, 0.6148806810379028, 0.10444822162389755, -0.18464207649230957,
                 0.08390955626964569, 0.08270199596881866, -0.1728714108467102, 0.1601262390613556],
}


def test_train_step_keeps_training_after_the_backbone_is_evaluated(each_mode):
    net = Net()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    train.set_train()
    out = []
    for step in range(6):
        out.append(float(train(Tensor(X), Tensor(Y)).asnumpy()))
        if step == 2:
            net.set_train(False)
            out.append(float(nn.MSELoss()(net(Tensor(X)), Tensor(Y)).asnumpy()))
    out += [float(value) for value in net.bn.moving_mean.asnumpy()]
    np.testing.assert_allclose(out, STEPS[each_mode], rtol=2e-5, atol=1e-6)
    assert train.phase == "train" and net.phase == "predict" and not net.bn.training


class _EvalAtEpochEnd(Callback):
    def __init__(self, net, record):
        self.net, self.record = net, record

    def on_train_epoch_end(self, run_context):
        self.net.set_train(False)
        self.record.append(float(nn.MSELoss()(self.net(Tensor(X)), Tensor(Y)).asnumpy()))

    def on_train_step_end(self, run_context):
        self.record.append(float(run_context.original_args().net_outputs.asnumpy()))


# three epochs of (two step losses, the evaluation loss), then BatchNorm's moving mean
EPOCHS = {
    "graph": [1.6791170835494995, 1.3886892795562744, 1.278982162475586, 0.340960294008255, 1.4016722440719604,
              1.751260757446289, 0.6831567883491516, 0.7206355929374695, 0.8837131857872009, 0.13180671632289886,
              -0.3182854652404785, 0.15481211245059967, 0.25828537344932556, -0.2860744297504425, 0.28985288739204407],
    "pynative": [1.6791170835494995, 1.3886892795562744, 1.278982162475586, 1.43563973903656, 1.3474026918411255,
                 1.2611926794052124, 1.5523546934127808, 0.8579984307289124, 0.8017520904541016, 0.09048201888799667,
                 -0.12573519349098206, 0.06583375483751297, 0.05343809723854065, -0.11213934421539307,
                 0.11483955383300781],
}


def test_model_train_with_an_eval_callback_on_the_backbone(each_mode):
    net = Net()
    record = []
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    data = dataset.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(4)
    model.train(3, data, callbacks=[_EvalAtEpochEnd(net, record)], dataset_sink_mode=False)
    record += [float(value) for value in net.bn.moving_mean.asnumpy()]
    np.testing.assert_allclose(record, EPOCHS[each_mode], rtol=2e-5, atol=1e-6)
