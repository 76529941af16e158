"""Model.train/eval/predict/fit in both modes, with and without sink mode; callback order."""
import numpy as np
import pytest

import sporax as ms
from sporax import dataset, nn
from sporax.train import Callback, LossMonitor, Model

RNG = np.random.default_rng(0)
X = RNG.standard_normal((20, 4)).astype(np.float32)
Y = (X @ np.arange(1, 5, dtype=np.float32).reshape(4, 1)).astype(np.float32)
W0 = RNG.standard_normal((1, 4)).astype(np.float32)


def data(batch=5):
    return dataset.NumpySlicesDataset((X, Y), column_names=["x", "y"], shuffle=False).batch(batch)


def make_model(metrics=None):
    net = nn.Dense(4, 1, weight_init=ms.Tensor(W0), bias_init="zeros")
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9), metrics=metrics)
    return model, net


class Recorder(Callback):
    """Records (hook, epoch, step, loss) for every hook Model calls."""

    def __init__(self):
        self.calls = []

    def _record(self, name, run_context):
        params = run_context.original_args()
        loss = params.get("net_outputs")
        loss = float(loss.asnumpy()) if isinstance(loss, ms.Tensor) else None
        self.calls.append((name, params.get("cur_epoch_num"), params.get("cur_step_num"), loss))


for _hook in ("on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
              "on_train_epoch_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin",
              "on_eval_step_begin", "on_eval_step_end", "on_eval_epoch_end", "on_eval_end"):
    setattr(Recorder, _hook, lambda self, rc, _name=_hook: self._record(_name, rc))


def hooks(recorder, *names):
    return [(name, epoch, step) for name, epoch, step, _ in recorder.calls if not names or name in names]


@pytest.fixture(params=["PYNATIVE", "GRAPH"])
def mode(request):
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "GRAPH" else ms.PYNATIVE_MODE)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_callback_order_matches_mindspore(mode):
    model, _ = make_model()
    recorder = Recorder()
    model.train(2, data(), callbacks=[recorder])
    expected = [("on_train_begin", None, 0)]
    for epoch in (1, 2):
        expected.append(("on_train_epoch_begin", epoch, 4 * (epoch - 1)))
        for step in range(4 * (epoch - 1) + 1, 4 * epoch + 1):
            expected += [("on_train_step_begin", epoch, step), ("on_train_step_end", epoch, step)]
        expected.append(("on_train_epoch_end", epoch, 4 * epoch))
    expected.append(("on_train_end", 2, 8))
    assert hooks(recorder) == expected


@pytest.mark.parametrize("sink_size, epochs", [(-1, 2), (2, 3), (3, 4)])
def test_sink_mode_calls_step_hooks_once_per_sink(mode, sink_size, epochs):
    model, _ = make_model()
    recorder = Recorder()
    model.train(epochs, data(), callbacks=[recorder], dataset_sink_mode=True, sink_size=sink_size)
    per_epoch = 4 if sink_size == -1 else sink_size
    steps = hooks(recorder, "on_train_step_end")
    assert steps == [("on_train_step_end", e, e * per_epoch) for e in range(1, epochs + 1)]
    assert len(hooks(recorder, "on_train_epoch_end")) == epochs


def test_same_losses_with_and_without_sink(mode):
    plain, plain_net = make_model()
    stepwise = Recorder()
    plain.train(3, data(), callbacks=[stepwise])
    sunk, sunk_net = make_model()
    sinking = Recorder()
    sunk.train(3, data(), callbacks=[sinking], dataset_sink_mode=True)
    step_losses = [loss for name, _, _, loss in stepwise.calls if name == "on_train_step_end"]
    sink_losses = [loss for name, _, _, loss in sinking.calls if name == "on_train_step_end"]
    np.testing.assert_allclose(sink_losses, step_losses[3::4], rtol=1e-5)
    np.testing.assert_allclose(sunk_net.weight.asnumpy(), plain_net.weight.asnumpy(), rtol=1e-5)


def test_sink_continues_through_the_data_across_epochs():
    """sink_size smaller than the dataset: each epoch takes the next batches, wrapping around."""
    model, net = make_model()
    model.train(3, data(), dataset_sink_mode=True, sink_size=3)  # 9 steps over 4 batches
    reference, reference_net = make_model()
    batches = list(data().create_tuple_iterator(num_epochs=1))
    for step in range(9):
        reference.train_network(*batches[step % 4])
    np.testing.assert_allclose(net.weight.asnumpy(), reference_net.weight.asnumpy(), rtol=1e-5)


def test_modes_give_the_same_training():
    results = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        model, net = make_model()
        model.train(2, data())
        results.append(net.weight.asnumpy())
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6)


def test_eval_predict_and_fit(mode, capsys):
    model, net = make_model(metrics={"mae", "loss"})
    before = model.eval(data())
    expected_mae = np.abs(X @ W0.T - Y).mean()
    assert before["mae"] == pytest.approx(expected_mae, rel=1e-5)
    assert before["loss"] == pytest.approx(np.mean((X @ W0.T - Y) ** 2), rel=1e-5)
    prediction = model.predict(ms.Tensor(X[:3]))
    np.testing.assert_allclose(prediction.asnumpy(), X[:3] @ W0.T, rtol=1e-5)
    model.fit(2, data(), data(), callbacks=[LossMonitor(4)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("epoch: 1 step: 4, loss is ")
    assert lines[1].startswith("Eval result: epoch 1, metrics: {")
    assert model.eval(data())["loss"] < before["loss"]


class _EpochMetrics(Callback):
    def __init__(self):
        self.seen = []

    def on_train_epoch_end(self, run_context):
        params = run_context.original_args()
        self.seen.append((params.cur_epoch_num, "metrics" in params, "eval_results" in params))


@pytest.mark.parametrize("frequency, evaluated", [(2, [2]), ([1, 3], [1, 3])])
def test_fit_evaluates_at_mindspores_epochs_only(frequency, evaluated):
    # recorded from MindSpore 2.10: an int evaluates every that many epochs (epoch 3 of 3 is not forced),
    # a list at its epochs; the metrics reach that epoch's callbacks only
    model, _ = make_model(metrics={"mae"})
    recorder = _EpochMetrics()
    model.fit(3, data(), data(), valid_frequency=frequency, callbacks=[recorder])
    assert recorder.seen == [(epoch, epoch in evaluated, epoch in evaluated) for epoch in (1, 2, 3)]
    with pytest.raises(TypeError, match="valid_frequency"):
        model.fit(1, data(), data(), valid_frequency=1.5)
    with pytest.raises(ValueError, match="valid_frequency"):
        model.fit(1, data(), data(), valid_frequency=0)


class _StepCounts(Callback):
    def __init__(self):
        self.seen = []

    def on_train_begin(self, run_context):
        params = run_context.original_args()
        self.seen.append(("begin", params.cur_step_num, params.epoch_num))

    def on_train_step_end(self, run_context):
        params = run_context.original_args()
        self.seen.append((params.cur_epoch_num, params.cur_step_num, float(params.train_dataset_element[0].asnumpy()[0, 0])))


def test_resumed_training_counts_its_own_steps_as_mindspore():
    # recorded from MindSpore 2.10 (train(4, initial_epoch=2) over 3 batches): cur_step_num starts at 0 and
    # epoch_num is epoch - initial_epoch; the epochs keep their numbers 3 and 4
    model, _ = make_model()
    recorder = _StepCounts()
    model.train(4, data(batch=10), callbacks=[recorder], initial_epoch=2)
    first = [float(X[0, 0]), float(X[10, 0])]
    assert recorder.seen == [("begin", 0, 2)] + [(3 + step // 2, step + 1, pytest.approx(first[step % 2]))
                                                  for step in range(4)]


def test_request_stop_ends_training():
    class StopAt3(Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 3:
                run_context.request_stop()

    model, _ = make_model()
    recorder = Recorder()
    model.train(5, data(), callbacks=[StopAt3(), recorder])
    assert hooks(recorder, "on_train_step_end")[-1] == ("on_train_step_end", 1, 3)
    assert hooks(recorder)[-1][0] == "on_train_end"


def test_model_errors_are_named():
    net = nn.Dense(4, 1)
    with pytest.raises(TypeError, match="network must be a Cell"):
        Model(lambda x: x)
    with pytest.raises(KeyError, match="unsupported metric foo"):
        Model(net, metrics={"foo"})
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params()))
    # MindSpore 2.10: "The input value must be int and must > 0, but got '0' with type 'int'."
    with pytest.raises(ValueError, match=r"^The input value must be int and must > 0, but got '0' with type 'int'\."):
        model.train(0, data())
    # MindSpore 2.10's words (/tmp/zoo23-probe/ctxapi.py)
    with pytest.raises(ValueError, match=r"^For Model.eval, the model argument 'metrics' can not be None or empty, "
                                         r"you should set the argument 'metrics' for model.$"):
        model.eval(data())


@pytest.mark.parametrize("sink", [False, True])
def test_eval_gives_scalar_metrics_as_numpy_float64(sink):
    # MindSpore 2.10 gives numpy.float64 (a float) for scalar metrics and arrays for per-class ones.
    from sporax.train import F1, Accuracy, Loss, Precision, Top1CategoricalAccuracy

    net = nn.Dense(2, 3)
    metrics = {"acc": Accuracy(), "loss": Loss(), "top1": Top1CategoricalAccuracy(), "precision": Precision(),
               "f1": F1()}
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), metrics=metrics)
    data = dataset.NumpySlicesDataset({"x": np.random.default_rng(0).random((4, 2)).astype(np.float32),
                                       "y": np.array([0, 1, 2, 1], np.int32)}, shuffle=False).batch(2)
    result = model.eval(data, dataset_sink_mode=sink)
    for name in ("acc", "loss", "top1"):
        assert type(result[name]) is np.float64, (name, type(result[name]))
    assert 0.0 <= result["acc"] <= 1.0 and result["acc"] == result["top1"]
    for name in ("precision", "f1"):
        assert isinstance(result[name], np.ndarray) and result[name].shape == (3,)


class _DenseBatchNorm(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        self.bn = nn.BatchNorm1d(2, momentum=0.5)

    def construct(self, x):
        return self.bn(self.dense(x))


@pytest.mark.parametrize("sink", [False, True])
def test_training_resumes_in_train_mode_after_a_callback_evaluates(sink):
    # mindcv's validation callback calls model.eval at each epoch end; the next training step must use
    # batch statistics again (BatchNorm), as in MindSpore. Recorded with MindSpore 2.10 (GRAPH mode, no sink).
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 3)).astype(np.float32) * 3 + 1
    y = rng.integers(0, 2, 8).astype(np.int32)

    def batches():
        return dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)

    class EvaluateAtEpochEnd(Callback):
        def __init__(self):
            self.results = []

        def on_train_epoch_end(self, run_context):
            self.results.append(model.eval(batches(), dataset_sink_mode=False)["loss"])

    class StepLosses(Callback):
        def __init__(self):
            self.losses = []

        def on_train_step_end(self, run_context):
            self.losses.append(float(run_context.original_args().net_outputs.asnumpy()))

    ms.set_context(mode=ms.GRAPH_MODE)
    net = _DenseBatchNorm()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"loss"})
    evaluate, losses = EvaluateAtEpochEnd(), StepLosses()
    model.train(2, batches(), callbacks=[losses, evaluate], dataset_sink_mode=sink, sink_size=1 if sink else -1)
    if not sink:
        assert losses.losses == pytest.approx([0.693147, 0.673993, 0.647359, 0.566181], abs=1e-5)
        assert evaluate.results == pytest.approx([0.638226, 0.564719], abs=1e-5)
        assert net.bn.moving_mean.asnumpy() == pytest.approx([1.467003, 1.465635], abs=1e-5)
    else:
        # One sunk step per epoch, through the data in order: the second epoch's step is MindSpore's second
        # step above, taken in train mode (left in inference mode it gives 0.655946).
        assert losses.losses == pytest.approx([0.693147, 0.673993], abs=1e-5)


def test_a_dataset_trained_by_one_model_is_refused_by_another():
    # MindSpore 2.10 (recorded): the same Model may train on it again, but a second Model's train (before any
    # callback runs) raises this RuntimeError; a new dataset object is fine.
    shared = data()
    first, _ = make_model()
    first.train(1, shared)
    first.train(1, shared)
    second, net = make_model()
    recorder = Recorder()
    with pytest.raises(RuntimeError, match="The dataset object had been used in other model by model.train"):
        second.train(1, shared, callbacks=[recorder])
    assert recorder.calls == []
    np.testing.assert_array_equal(net.weight.asnumpy(), W0)
    second.train(1, data())
    assert not np.array_equal(net.weight.asnumpy(), W0)


def test_cpu_target_trains_a_sink_request_step_by_step(monkeypatch, capsys):
    """MindSpore 2.10 with device_target='CPU' ignores dataset_sink_mode=True (recorded: 6 rows in 3 batches,
    Model.train(2, sink_size=2) then Model.eval(sink=True)): every step reaches the callbacks with
    dataset_sink_mode False, batch_num stays sink_size (so LossMonitor numbers steps 1 2 1 2 1 2), eval too."""
    from sporax.core import context

    monkeypatch.setitem(context._requested, "device_target", None)
    monkeypatch.setitem(context._context, "device_target", None)
    ms.set_context(device_target="CPU")

    class Seen(Callback):
        def __init__(self):
            self.steps = []

        def on_train_step_end(self, run_context):
            params = run_context.original_args()
            self.steps.append((params.cur_epoch_num, params.cur_step_num, params.batch_num, params.dataset_sink_mode))

        def on_eval_step_end(self, run_context):
            params = run_context.original_args()
            self.steps.append(("eval", params.cur_step_num, params.batch_num, params.dataset_sink_mode))

    model, net = make_model(metrics={"loss"})
    seen = Seen()
    model.train(2, data(batch=7), callbacks=[seen, LossMonitor()], dataset_sink_mode=True, sink_size=2)
    model.eval(data(batch=7), callbacks=[seen], dataset_sink_mode=True)
    assert seen.steps == [(1, 1, 2, False), (1, 2, 2, False), (1, 3, 2, False), (2, 4, 2, False), (2, 5, 2, False),
                          (2, 6, 2, False), ("eval", 1, 3, False), ("eval", 2, 3, False), ("eval", 3, 3, False)]
    printed = [line.split(",")[0] for line in capsys.readouterr().out.splitlines() if line.startswith("epoch")]
    assert printed == ["epoch: 1 step: 1", "epoch: 1 step: 2", "epoch: 1 step: 1", "epoch: 2 step: 2",
                       "epoch: 2 step: 1", "epoch: 2 step: 2"]
    reference, reference_net = make_model()
    reference.train(2, data(batch=7))  # the whole dataset each epoch, as without sink
    np.testing.assert_allclose(net.weight.asnumpy(), reference_net.weight.asnumpy(), rtol=1e-6)


def test_callback_params_network_is_the_users_network():
    # MindSpore 2.10: cb_params.network is the network given to Model; train_network wraps it
    class Seen(Callback):
        def on_train_epoch_end(self, run_context):
            params = run_context.original_args()
            self.seen = (params.network, type(params.train_network).__name__)

    net = nn.Dense(4, 1)
    seen = Seen()
    Model(net, nn.MSELoss(), nn.SGD(net.trainable_params())).train(1, data(), callbacks=[seen],
                                                                  dataset_sink_mode=False)
    assert seen.seen[0] is net and seen.seen[1] == "TrainOneStepCell"


def test_metrics_without_loss_fn_or_eval_network_is_refused():
    # MindSpore 2.10 refuses it in Model(...), before any evaluation
    with pytest.raises(ValueError, match=r"^If `metrics` is set, `eval_network` must not be None\. Do not set "
                                         r"`metrics` if you don't want an evaluation\."):
        Model(nn.Dense(4, 1), metrics={"mae"})


def test_loss_monitor_in_eval_callbacks_prints_epoch_one(capsys):
    # MindSpore 2.10: LossMonitor given to Model.eval prints 'epoch: 1 step: k, loss is ...' per batch;
    # cb_params.mode is 'eval' there ('train' in Model.train)
    modes = []

    class Mode(Callback):
        def on_eval_end(self, run_context):
            modes.append(run_context.original_args().mode)

        def on_train_end(self, run_context):
            modes.append(run_context.original_args().mode)

    model, _ = make_model(metrics={"mae"})
    model.train(1, data(), callbacks=[Mode()], dataset_sink_mode=False)
    capsys.readouterr()
    model.eval(data(), callbacks=[LossMonitor(), Mode()], dataset_sink_mode=False)
    lines = capsys.readouterr().out.splitlines()
    steps = data().get_dataset_size()
    assert [line.split(", loss is")[0] for line in lines] == [f"epoch: 1 step: {k}" for k in range(1, steps + 1)]
    assert modes == ["train", "eval"]
