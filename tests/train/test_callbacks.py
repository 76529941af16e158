"""Callbacks driven by hand-made cb_params, checked against MindSpore 2.10's behaviour."""
import os
import re

import numpy as np
import pytest

import sporax
from sporax import Tensor, nn
from sporax.core.parameter import Parameter
from sporax.io import load_checkpoint
from sporax.train.callback import (Callback, CallbackList, CallbackParams, CheckpointConfig,
                                   EarlyStopping, History, LambdaCallback, LossMonitor,
                                   ModelCheckpoint, ProgressBar, ReduceLROnPlateau, RunContext,
                                   SummaryCollector, TimeMonitor)


def drive(callback, epochs, steps, losses=None, metrics=None, network=None, optimizer=None):
    """Call the hooks as Model.train does; returns the RunContext."""
    params = CallbackParams(epoch_num=epochs, batch_num=steps, cur_step_num=0,
                            train_network=network, optimizer=optimizer)
    context = RunContext(params)
    callback.on_train_begin(context)
    for epoch in range(1, epochs + 1):
        params.cur_epoch_num = epoch
        callback.on_train_epoch_begin(context)
        for _ in range(steps):
            params.cur_step_num += 1
            callback.on_train_step_begin(context)
            value = losses[params.cur_step_num - 1] if losses else 1.0
            params.net_outputs = Tensor(np.float32(value))
            callback.on_train_step_end(context)
        if metrics is not None:
            params.metrics = {"loss": metrics[epoch - 1]}
        callback.on_train_epoch_end(context)
        if context.get_stop_requested():
            break
    callback.on_train_end(context)
    return context


def test_legacy_hook_names_are_called():
    calls = []

    class Old(Callback):
        def begin(self, run_context):
            calls.append("begin")

        def step_end(self, run_context):
            calls.append("step_end")

        def epoch_end(self, run_context):
            calls.append("epoch_end")

        def end(self, run_context):
            calls.append("end")

    drive(Old(), 2, 2)
    assert calls == ["begin", "step_end", "step_end", "epoch_end", "step_end", "step_end", "epoch_end", "end"]


def test_cb_params_attribute_access_and_stop():
    params = CallbackParams(cur_step_num=3)
    assert params.cur_step_num == 3
    with pytest.raises(AttributeError, match="cur_epoch_num"):
        params.cur_epoch_num
    context = RunContext(params)
    assert context.original_args() is params and not context.get_stop_requested()
    context.request_stop()
    assert context.get_stop_requested()


def test_loss_monitor_format_matches_mindspore(capsys):
    drive(LossMonitor(2), 2, 4, losses=[2.0697524547576904] * 8)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["epoch: 1 step: 2, loss is 2.0697524547576904",
                     "epoch: 1 step: 4, loss is 2.0697524547576904",
                     "epoch: 2 step: 2, loss is 2.0697524547576904",
                     "epoch: 2 step: 4, loss is 2.0697524547576904"]
    with pytest.raises(ValueError, match="must >= 0"):
        LossMonitor(-1)
    with pytest.raises(ValueError, match="Invalid loss"):
        drive(LossMonitor(), 1, 2, losses=[1.0, float("nan")])


def test_time_monitor_prints_per_epoch(capsys):
    drive(TimeMonitor(), 2, 3)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(line.startswith("Train epoch time: ") for line in lines)
    assert "per step time: " in lines[0]


@pytest.mark.parametrize("data_size", [100, -1, "x", None])
def test_time_monitor_divides_by_the_runs_steps_not_data_size(capsys, data_size):
    # MindSpore 2.10 (/tmp/zoo23-probe/tm.py): the run's batch_num wins over data_size, which is not checked
    # (TimeMonitor(-1) and TimeMonitor("x") construct); data_time adds " (data time: X ms)" per step.
    drive(TimeMonitor(data_size, data_time=True), 1, 4)
    line = capsys.readouterr().out.strip()
    match = re.fullmatch(r"Train epoch time: ([\d.]+) ms, per step time: ([\d.]+) ms \(data time: [\d.]+ ms\)", line)
    assert match, line
    assert float(match.group(2)) == pytest.approx(float(match.group(1)) / 4, abs=1e-3)
    with pytest.raises(TypeError, match="'data_time' must be a bool, but got int"):
        TimeMonitor(data_time=1)


def test_model_checkpoint_names_rotation_and_prefix(tmp_path):
    net = nn.Dense(4, 1)
    config = CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=3)
    drive(ModelCheckpoint("net", str(tmp_path), config), 3, 4, network=net)
    # Same files as MindSpore 2.10 for 3 epochs x 4 steps, saving every 3 steps, keeping 3.
    assert sorted(os.listdir(tmp_path)) == ["net-2_2.ckpt", "net-3_1.ckpt", "net-3_4.ckpt"]
    drive(ModelCheckpoint("net", str(tmp_path), config), 1, 4, network=net)
    assert sorted(os.listdir(tmp_path))[-2:] == ["net_1-1_3.ckpt", "net_1-1_4.ckpt"]
    loaded = load_checkpoint(str(tmp_path / "net-3_4.ckpt"))
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), net.weight.asnumpy())


def test_model_checkpoint_writes_no_graph_meta_in_graph_mode_mindspore_difference(tmp_path):
    # Named difference. MindSpore 2.10 (CPU, /tmp/semantics22-x/meta.py) also writes "<prefix>-graph.meta" once,
    # before the first checkpoint, in GRAPH_MODE only (PyNative writes none): its compiled graph as MindSpore's
    # internal anf_ir GraphProto, for MindInsight's graph view; no MindSpore API loads it back and nothing in a
    # training script reads it. sporax's program is XLA's, not that graph: it writes the checkpoints alone.
    sporax.set_context(mode=sporax.GRAPH_MODE)
    try:
        drive(ModelCheckpoint("net", str(tmp_path), CheckpointConfig(save_checkpoint_steps=2)), 1, 2,
              network=nn.Dense(4, 1))
    finally:
        sporax.set_context(mode=sporax.PYNATIVE_MODE)
    assert sorted(os.listdir(tmp_path)) == ["net-1_2.ckpt"]


def test_model_checkpoint_append_info(tmp_path):
    config = CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=10,
                              append_info=["epoch_num", "step_num", {"lr": 0.1}])
    drive(ModelCheckpoint("ap", str(tmp_path), config), 2, 4, network=nn.Dense(4, 1))
    assert sorted(os.listdir(tmp_path)) == ["ap-1_4.ckpt", "ap-2_4.ckpt"]
    loaded = load_checkpoint(str(tmp_path / "ap-2_4.ckpt"))
    assert list(loaded)[-3:] == ["epoch_num", "step_num", "lr"]
    assert int(loaded["epoch_num"].asnumpy()) == 2 and int(loaded["step_num"].asnumpy()) == 8


def test_early_stopping_stops_and_restores(capsys):
    net = nn.Dense(2, 1)
    history = []

    class Mutate(Callback):
        def on_train_epoch_end(self, run_context):
            net.weight.set_data(Tensor(np.full((1, 2), run_context.original_args().cur_epoch_num, np.float32)))
            history.append(run_context.original_args().cur_epoch_num)

    stopper = EarlyStopping(monitor="eval_loss", patience=2, verbose=True, restore_best_weights=True)
    drive(CallbackList([Mutate(), stopper]), 10, 1, metrics=[5, 4, 3, 3.5, 3.2, 1, 1, 1, 1, 1], network=net)
    assert history == [1, 2, 3, 4, 5] and stopper.stopped_epoch == 5 and stopper.best == 3
    assert capsys.readouterr().out.strip() == "Epoch 00005: early stopping"
    np.testing.assert_array_equal(net.weight.asnumpy(), [[3, 3]])
    with pytest.raises(ValueError, match="mode should be"):
        EarlyStopping(mode="foo")
    # A monitored value that training does not produce: MindSpore 2.10 warns and trains on (its
    # docstring example monitors 'acc' through Model.fit without a validation dataset).
    absent = EarlyStopping(monitor="eval_accuracy", patience=1)
    drive(absent, 3, 1, metrics=[1.0, 1.0, 1.0])
    assert absent.stopped_epoch == 0


def test_reduce_lr_on_plateau():
    class Optimizer:
        learning_rate = Parameter(Tensor(np.float32(0.1)), name="learning_rate")

    reducer = ReduceLROnPlateau(monitor="eval_loss", factor=0.5, patience=1, min_lr=0.02, cooldown=1)
    drive(reducer, 7, 1, metrics=[1, 2, 2, 2, 2, 2, 2], optimizer=Optimizer)
    # worse at 2 -> 0.05; cooldown at 3; worse at 4 -> 0.025; cooldown 5; 6 -> max(0.0125, 0.02)
    assert float(Optimizer.learning_rate.asnumpy()) == pytest.approx(0.02)


def test_reduce_lr_on_plateau_verbose_prints_the_float32_rate(capsys):
    # recorded from MindSpore 2.10 (Model.fit, lr 0.01, factor 0.5): "... reducing learning rate to 0.005." then
    # "... to 0.0025." (sporax printed the float64 value of the float32 rate, 0.004999999888241291)
    class Optimizer:
        learning_rate = Parameter(Tensor(np.float32(0.01)), name="learning_rate")

    reducer = ReduceLROnPlateau(monitor="eval_loss", factor=0.5, patience=0, min_delta=100.0, verbose=True)
    drive(reducer, 3, 1, metrics=[1, 1, 1], optimizer=Optimizer)
    lines = [line for line in capsys.readouterr().out.splitlines() if "ReduceLROnPlateau" in line]
    assert lines == ["Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.005.",
                     "Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.0025."]


def test_history_and_lambda():
    history = History()
    drive(history, 2, 2, losses=[4, 3, 2, 1], metrics=[0.5, 0.25])
    assert history.epoch == {"epoch": [1, 2]}  # MindSpore 2.10 keeps the numbers under "epoch"
    assert history.history == {"net_output": [3.0, 1.0], "loss": [0.5, 0.25]}
    seen = []
    drive(LambdaCallback(on_train_step_end=lambda rc: seen.append(rc.original_args().cur_step_num)), 1, 3)
    assert seen == [1, 2, 3]


def test_summary_collector_writes_tensorboard_events(tmp_path):
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    drive(SummaryCollector(str(tmp_path), collect_freq=2), 2, 4, losses=[8, 7, 6, 5, 4, 3, 2, 1],
          metrics=[0.5, 0.25])
    events = EventAccumulator(str(tmp_path))
    events.Reload()
    assert [e.value for e in events.Scalars("loss")] == [7, 5, 3, 1]
    assert [e.step for e in events.Scalars("loss")] == [2, 4, 6, 8]
    assert [e.value for e in events.Scalars("eval/loss")] == [0.5, 0.25]


def test_progress_bar_counts_steps(tmp_path):
    with open(tmp_path / "bar.txt", "w") as handle:
        drive(ProgressBar(file=handle), 2, 5, losses=[1.0] * 10)
    text = (tmp_path / "bar.txt").read_text()
    assert "epoch 1/2" in text and "epoch 2/2" in text and "5/5" in text and "loss=1.0000" in text


def test_checkpoint_config_reports_overridden_settings_as_none():
    # Values recorded from MindSpore 2.10's CheckpointConfig.
    policy = CheckpointConfig(save_checkpoint_seconds=100, keep_checkpoint_per_n_minutes=5).get_checkpoint_policy()
    assert policy == {"save_checkpoint_steps": 1, "save_checkpoint_seconds": None, "keep_checkpoint_max": 5,
                      "keep_checkpoint_per_n_minutes": None, "saved_network": None}
    config = CheckpointConfig(save_checkpoint_steps=3, save_checkpoint_seconds=100, keep_checkpoint_max=0,
                              keep_checkpoint_per_n_minutes=5)
    assert (config.save_checkpoint_seconds, config.keep_checkpoint_max, config.keep_checkpoint_per_n_minutes) == \
        (None, 0, 5)


def test_checkpoint_config_and_model_checkpoint_argument_checks():
    # error types and first lines recorded from MindSpore 2.10
    with pytest.raises(ValueError, match=r"^For 'CheckpointConfig', the value of element in the argument "
                                         r"'append_info' must be in \['epoch_num', 'step_num'\], but got foo\.$"):
        CheckpointConfig(append_info=["foo"])
    with pytest.raises(TypeError, match=r"^For 'CheckpointConfig', the key type of the dict 'append_info' must be "
                                        r"string, the value type must be int or float or bool, but got key type "
                                        r"<class 'str'>, value type <class 'list'>$"):
        CheckpointConfig(append_info=[{"a": [1]}])
    with pytest.raises(ValueError, match=r"^For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is "
                                         r"invalid, it must be callable or string that does not contain '/', but "
                                         r"got a/b\.$"):
        ModelCheckpoint(prefix="a/b")
    with pytest.raises(TypeError, match=r"^For 'ModelCheckpoint', the type of argument 'config' should be "
                                        r"'CheckpointConfig', but got <class 'int'>\.$"):
        ModelCheckpoint(config=1)
    assert CheckpointConfig(append_info=[]).append_dict is None


def test_history_records_the_loss_as_a_float32_numpy_scalar():
    # MindSpore 2.10: History.history["net_output"] holds numpy.float32 values (np.mean of the loss Tensor)
    history = History()
    drive(history, 2, 2, losses=[0.5, 0.25, 0.125, 1.5])
    assert [type(value) for value in history.history["net_output"]] == [np.float32, np.float32]
    assert history.history["net_output"] == [0.25, 1.5]


def test_reduce_lr_on_plateau_factor_check():
    # MindSpore 2.10's error type and first line
    with pytest.raises(ValueError, match=r"^The input value must be in range of \(0\.0, 1\.0\), but got 1\.5 with "
                                         r"type 'float'\."):
        ReduceLROnPlateau(factor=1.5)


def test_checkpoint_config_without_steps_or_seconds_saves_nothing(tmp_path):
    # MindSpore 2.10: None stays None in the policy, all four unset is a ValueError, and a ModelCheckpoint
    # with neither a step nor a time interval writes no file, not even at the end of training
    policy = CheckpointConfig(save_checkpoint_steps=None).get_checkpoint_policy()
    assert (policy["save_checkpoint_steps"], policy["save_checkpoint_seconds"], policy["keep_checkpoint_max"]) == \
        (None, 0, 5)
    with pytest.raises(ValueError, match=r"^For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                                         r"'save_checkpoint_seconds', 'keep_checkpoint_max' and "
                                         r"'keep_checkpoint_per_n_minutes' can't be all None or 0\.$"):
        CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=None)
    folder = tmp_path / "ckpt"
    drive(ModelCheckpoint("net", str(folder), CheckpointConfig(save_checkpoint_steps=None)), 2, 3,
          network=nn.Dense(3, 1))
    assert os.listdir(folder) == []  # MindSpore makes the folder in ModelCheckpoint()
