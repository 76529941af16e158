"""LearningRateScheduler, BackupAndRestore, load_checkpoint_async, synchronize, manual_seed."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.dataset import NumpySlicesDataset
from sporax.train import BackupAndRestore, LearningRateScheduler, Model

with open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "api", "tier2.json")) as _f:
    ORACLE = json.load(_f)


def _data():
    return NumpySlicesDataset({"x": np.ones((10, 3), np.float32), "y": np.zeros((10, 1), np.float32)},
                              shuffle=False).batch(2)


def _model():
    net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    return net, optimizer, Model(net, nn.MSELoss(), optimizer)


def test_learning_rate_scheduler_matches_oracle():
    _, optimizer, model = _model()
    model.train(2, _data(), callbacks=[LearningRateScheduler(lambda lr, step: lr * 0.5 if step % 3 == 0 else lr)])
    np.testing.assert_allclose(float(optimizer.learning_rate.asnumpy()), ORACLE["lr_scheduler_final_lr"],
                               rtol=1e-6)


def test_backup_and_restore(tmp_path):
    net, _, model = _model()
    backup = BackupAndRestore(str(tmp_path / "backup"), save_freq=1, delete_checkpoint=False)
    model.train(1, _data(), callbacks=[backup])
    trained = net.weight.asnumpy().copy()
    assert os.path.isfile(backup.backup_file)
    # A restarted training (fresh network) begins from the backup, not from its initial weights.
    fresh, _, fresh_model = _model()
    captured = {}

    class Capture(ms.train.Callback):
        def on_train_step_begin(self, run_context):
            captured.setdefault("weight", fresh.weight.asnumpy().copy())

    fresh_model.train(1, _data(), callbacks=[BackupAndRestore(str(tmp_path / "backup")), Capture()])
    np.testing.assert_allclose(captured["weight"], trained)
    assert not os.path.exists(backup.backup_file)  # delete_checkpoint=True by default


@pytest.mark.parametrize("save_freq", [0, -1, "step", 1.5])
def test_backup_and_restore_rejects_bad_frequency(tmp_path, save_freq):
    with pytest.raises(ValueError, match="save_freq"):
        BackupAndRestore(str(tmp_path), save_freq=save_freq)


def test_load_checkpoint_async(tmp_path):
    net = nn.Dense(3, 2)
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path)
    params = ms.load_checkpoint_async(path).result()
    np.testing.assert_array_equal(params["weight"].asnumpy(), net.weight.asnumpy())
    with pytest.raises(ValueError):
        ms.load_checkpoint_async(str(tmp_path / "missing.ckpt")).result()


def test_synchronize_and_manual_seed():
    x = ms.ops.ones((64, 64), ms.float32) @ ms.ops.ones((64, 64), ms.float32)
    assert ms.synchronize() is None
    assert float(x[0, 0]) == 64.0
    ms.set_seed(2)
    # MindSpore 2.10's manual_seed seeds the default generator, not the global seed (tests/ops/
    # test_mindspore_random_streams.py::test_manual_seed_is_not_set_seed)
    assert isinstance(ms.manual_seed(5), ms.Generator)
    assert ms.initial_seed() == 5 and ms.get_seed() == 2


def test_on_request_exit_saves_at_train_end_and_resumes(tmp_path):
    import signal

    from sporax.train import OnRequestExit

    previous = signal.getsignal(signal.SIGUSR1)
    try:
        net, _, model = _model()
        callback = OnRequestExit(directory=str(tmp_path), file_name="Net", sig=signal.SIGUSR1)

        class Ask(ms.train.Callback):
            def on_train_step_end(self, run_context):
                if run_context.original_args().cur_step_num == 2:
                    os.kill(os.getpid(), signal.SIGUSR1)

        model.train(1, _data(), callbacks=[callback, Ask()])
        assert callback.exit
        assert os.path.isfile(callback.train_name + ".ckpt") and os.path.isfile(callback.train_name + ".mindir")
        saved = ms.load_checkpoint(callback.train_name + ".ckpt")
        np.testing.assert_allclose(saved["weight"].asnumpy(), net.weight.asnumpy())
        # A new run with the same callback settings starts from the saved network.
        fresh, _, fresh_model = _model()
        seen = {}

        class Capture(ms.train.Callback):
            def on_train_step_begin(self, run_context):
                seen.setdefault("weight", fresh.weight.asnumpy().copy())

        fresh_model.train(1, _data(), callbacks=[OnRequestExit(directory=str(tmp_path), sig=signal.SIGUSR1),
                                                 Capture()])
        np.testing.assert_allclose(seen["weight"], net.weight.asnumpy())
    finally:
        signal.signal(signal.SIGUSR1, previous)


@pytest.mark.parametrize("kwargs, error", [({"save_ckpt": 1}, TypeError), ({"sig": 9}, ValueError)])
def test_on_request_exit_arguments(tmp_path, kwargs, error):
    from sporax.train import OnRequestExit

    with pytest.raises(error):
        OnRequestExit(directory=str(tmp_path), **kwargs)
