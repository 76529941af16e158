"""A stuck dataset function stops Model.train with the pipeline's error instead of hanging."""
import threading
import time

import numpy as np
import pytest

from sporax import dataset, nn
from sporax.train import Model

RELEASE = threading.Event()


@pytest.fixture(autouse=True)
def small_limits():
    interval = dataset.config.get_multiprocessing_timeout_interval()
    dataset.config.set_multiprocessing_timeout_interval(1)
    dataset.config.set_watchdog_timeout(0.5)
    RELEASE.clear()
    yield
    RELEASE.set()
    dataset.config.set_multiprocessing_timeout_interval(interval)
    dataset.config.set_watchdog_timeout(None)


def stuck_at_row_10(x, y):
    if float(y[0]) == 10:
        RELEASE.wait(60)
    return x, y


@pytest.mark.parametrize("sink", [False, True])
def test_stuck_map_stops_training_with_an_error_naming_it(sink):
    x = np.ones((24, 4), np.float32)
    y = np.arange(24, dtype=np.float32).reshape(24, 1)
    data = dataset.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False)
    data = data.map(stuck_at_row_10, ["x", "y"]).batch(3)
    net = nn.Dense(4, 1)
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    outcome = {}

    def train():
        try:
            model.train(2, data, dataset_sink_mode=sink)
        except RuntimeError as exc:
            outcome["error"] = exc
    thread = threading.Thread(target=train, daemon=True)
    start = time.monotonic()
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "Model.train hung on a stuck dataset function"
    message = str(outcome.get("error"))
    assert "stalled" in message and "stuck_at_row_10" in message and "row 10" in message
    assert time.monotonic() - start < 30
