"""Built-in callbacks driven by hand, as the zoo's EcapaTDNN drives ModelCheckpoint from its own loop
(``ckpt_cb.begin(run_context)`` / ``ckpt_cb.step_end(run_context)``): MindSpore 2.10 implements them
under the old hook names, so calling those does the work. File names recorded from MindSpore 2.10."""
import os

import numpy as np

import sporax as ms
from sporax import nn
from sporax.train import (CheckpointConfig, History, LossMonitor, ModelCheckpoint, RunContext,
                          _InternalCallbackParam)


def _run_context(network, steps):
    params = _InternalCallbackParam()
    params.train_network = network
    params.epoch_num = 1
    params.batch_num = steps
    params.cur_epoch_num = 0
    params.cur_step_num = 0
    return params, RunContext(params)


def test_model_checkpoint_step_end_saves(tmp_path):
    net = nn.TrainOneStepCell(nn.WithLossCell(nn.Dense(2, 1), nn.MSELoss()),
                              nn.Momentum(nn.Dense(2, 1).trainable_params(), 0.1, 0.9))
    params, run_context = _run_context(net, 3)
    callback = ModelCheckpoint(prefix="ecapa", directory=str(tmp_path),
                               config=CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=1))
    callback.begin(run_context)
    for _ in range(3):
        params.cur_step_num += 1
        callback.step_end(run_context)
    assert sorted(os.listdir(tmp_path)) == ["ecapa-0_2.ckpt"]  # MindSpore 2.10 writes exactly this
    callback.end(run_context)  # the final step was not saved yet
    assert "ecapa-0_3.ckpt" in os.listdir(tmp_path)


def test_loss_monitor_and_history_under_old_names(capsys):
    params, run_context = _run_context(None, 1)
    params.cur_step_num = 1
    params.net_outputs = ms.Tensor(np.float32(0.25))
    LossMonitor().step_end(run_context)
    assert "loss is 0.25" in capsys.readouterr().out
    history = History()
    history.begin(run_context)
    history.epoch_end(run_context)
    assert history.epoch == {"epoch": [0]}  # MindSpore 2.10's form
    np.testing.assert_allclose(history.history["net_output"], [0.25])


def test_set_cur_net_is_served_where_mindspore_2_10_has_it():
    # Checkpoint callbacks written outside MindSpore (mindpet's TrainableParamsCheckPoint) import it from
    # mindspore.train.callback._callback; it records the network a checkpoint without a train_network saves.
    import sporax.compat
    from sporax.train.callback.base import _get_cur_net

    sporax.compat.install()
    from mindspore.train.callback._callback import set_cur_net

    net = nn.Dense(2, 1)
    set_cur_net(net)
    try:
        assert _get_cur_net() is net
    finally:
        set_cur_net(None)


class _TrainableOnlyCheckpoint(ModelCheckpoint):
    """A subclass as mindpet writes one: MindSpore's _save_ckpt hook, saving only trainable Parameters and
    keeping keep_checkpoint_max files through _manager."""

    def _save_ckpt(self, cb_params, force_to_save=False):
        if cb_params.cur_step_num == self._last_triggered_step or not self._check_save_ckpt(cb_params, force_to_save):
            return
        self._manager.update_ckpoint_filelist(self._directory, self._prefix)
        if 0 < self._config.keep_checkpoint_max <= self._manager.ckpoint_num:
            self._manager.remove_oldest_ckpoint_file()
        self._last_triggered_step = cb_params.cur_step_num
        name = f"{self._prefix}-{cb_params.cur_epoch_num}_{cb_params.cur_step_num}.ckpt"
        ms.save_checkpoint(cb_params.train_network.trainable_params(), os.path.join(self._directory, name),
                           append_dict=self._append_dict)


def test_a_subclass_overriding_save_ckpt_decides_what_is_saved(tmp_path):
    dense = nn.Dense(2, 1)
    dense.bias.requires_grad = False
    params, run_context = _run_context(dense, 5)
    callback = _TrainableOnlyCheckpoint(prefix="delta", directory=str(tmp_path), config=CheckpointConfig(
        save_checkpoint_steps=2, keep_checkpoint_max=2, append_info=["epoch_num"]))
    for _ in range(5):
        params.cur_step_num += 1
        callback.step_end(run_context)
    callback.end(run_context)  # forced: step 5 was not saved
    assert sorted(os.listdir(tmp_path)) == ["delta-0_4.ckpt", "delta-0_5.ckpt"]
    assert sorted(ms.load_checkpoint(str(tmp_path / "delta-0_5.ckpt"))) == ["epoch_num", "weight"]
    assert ms.get_context("enable_ge") is False  # MindSpore's read-only flag such callbacks test


def test_handle_loss_matches_mindspore():
    """``mindspore.train.callback._callback._handle_loss`` (mindone.trainers imports it): results recorded
    from MindSpore 2.10. Only a Tensor becomes a float; a tuple led by a Tensor gives the Tensor back."""
    from sporax.train import _handle_loss
    import pytest
    assert _handle_loss(ms.Tensor([1.0, 2.0, 6.0], ms.float32)) == 3.0
    assert _handle_loss(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])) == 2.5
    out = _handle_loss(ms.Tensor([2, 3], ms.int32))
    assert type(out) is float and out == 2.5
    assert type(_handle_loss(ms.Tensor(True))) is float
    lead = ms.Tensor(4.0)
    assert _handle_loss((lead, ms.Tensor(True))) is lead
    assert isinstance(_handle_loss([ms.Tensor(5.0), 1]), ms.Tensor)
    assert _handle_loss((1.0, 2.0)) == (1.0, 2.0)
    assert _handle_loss(3) == 3 and type(_handle_loss(3)) is int
    arr = np.array([1.0, 3.0], np.float32)
    assert _handle_loss(arr) is arr
    assert _handle_loss(None) is None and _handle_loss("abc") == "abc"
    with pytest.raises(IndexError):
        _handle_loss(())


def test_callback_manager_drives_early_stopping():
    """MindSpore's st tests drive callbacks through ``mindspore.train.callback._CallbackManager``; recorded on
    MindSpore 2.10: None holds no callback, a non-Callback raises TypeError, and EarlyStopping(baseline=0.55,
    patience=2) over accuracies 0.6, 0.3, 0.5, 0.5 stops at epoch 3."""
    import pytest
    from sporax.train import EarlyStopping
    from sporax.train.callback import _CallbackManager
    assert _CallbackManager(None).callbacks == []
    with pytest.raises(TypeError, match="not a Callback or a list of Callback"):
        _CallbackManager(3)
    with pytest.raises(TypeError, match="must be Callback"):
        _CallbackManager([3])
    params = _InternalCallbackParam()
    run_context = RunContext(params)
    with _CallbackManager([EarlyStopping(monitor="accuracy", patience=2, baseline=0.55)]) as callbacks:
        for epoch, accuracy in enumerate([0.6, 0.3, 0.5, 0.5], 1):
            callbacks.on_train_epoch_begin(run_context)
            params.eval_results = {"accuracy": accuracy}
            params.cur_epoch_num = epoch
            callbacks.on_train_epoch_end(run_context)
            if run_context.get_stop_requested():
                break
        callbacks.on_train_end(run_context)
    assert params.cur_epoch_num == 3


def test_loss_monitor_eval_line_as_mindspore_prints_it():
    """Model.fit with LossMonitor: the 'Eval result' line is printed without a flush and shows NumPy scalars as
    plain numbers. MindSpore 2.10 leaves exactly this in a stdout that empties itself on flush (its st test_fit
    reads the metrics so): "Eval result: epoch 1, metrics: {'mse': 9.0}\\n"."""
    import io
    import sys
    from sporax import Model
    import sporax.dataset as ds

    class Clearing(io.StringIO):
        def flush(self):
            self.seek(0)
            self.truncate()

    net = nn.Dense(1, 1, has_bias=False)
    model = Model(net, loss_fn=nn.MSELoss(), optimizer=nn.Momentum(net.trainable_params(), 0.0, 0.9),
                  metrics={"mse"})
    data = ds.NumpySlicesDataset({"data": np.zeros((8, 1), np.float32),
                                  "label": np.full((8, 1), 3.0, np.float32)}).batch(4)
    out, current = Clearing(), sys.stdout
    sys.stdout = out
    try:
        model.fit(1, data, data, callbacks=[LossMonitor()])
    finally:
        sys.stdout = current
    assert out.getvalue() == "Eval result: epoch 1, metrics: {'mse': 9.0}\n"
