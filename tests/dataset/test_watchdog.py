"""A stuck user function warns, then stops the pipeline with an error naming op, worker and row.

MindSpore 2.10 (measured with a map function sleeping 3.5 s and
``set_multiprocessing_timeout_interval(1)``) logs "It has been waiting for 3s because the
sub-process worker of the map operation is hanging" every interval for process workers, nothing
for threads, and waits forever. sporax warns for threads and processes alike and, after
``set_watchdog_timeout`` seconds, raises instead of hanging.
"""
import logging
import multiprocessing
import threading
import time

import numpy as np
import pytest

import sporax.dataset as ds

RELEASE = threading.Event()  # lets a stuck worker thread finish once a test is over


@pytest.fixture(autouse=True)
def small_limits():
    saved = (ds.config.get_multiprocessing_timeout_interval(), ds.config.get_enable_watchdog())
    ds.config.set_multiprocessing_timeout_interval(1)
    ds.config.set_watchdog_timeout(0.5)
    RELEASE.clear()
    yield
    RELEASE.set()
    ds.config.set_multiprocessing_timeout_interval(saved[0])
    ds.config.set_watchdog_timeout(None)
    ds.config.set_enable_watchdog(saved[1])


def stuck_at_5(x):
    if int(x) == 5:
        RELEASE.wait(60)
    return x


def stuck_at_5_in_process(x):
    if int(x) == 5:
        time.sleep(60)  # the watchdog must end this process
    return x


def run_bounded(dataset, seconds=10):
    """(rows, error, elapsed) of one epoch, failing the test if it is still running after ``seconds``."""
    outcome = {"rows": []}

    def target():
        try:
            for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
                outcome["rows"].append(np.ravel(row[0]).tolist())
        except Exception as exc:  # noqa: BLE001 - handed to the test
            outcome["error"] = exc
    start = time.monotonic()
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"the pipeline hung for more than {seconds} s"
    return outcome["rows"], outcome.get("error"), time.monotonic() - start


def numbers(count=40):
    return ds.NumpySlicesDataset({"x": np.arange(count)}, shuffle=False)


def assert_stall_error(error, *names):
    assert isinstance(error, RuntimeError), error
    message = str(error)
    assert "stalled" in message and "set_watchdog_timeout" in message
    for name in names:
        assert name in message, (name, message)


def test_config_defaults_and_checks():
    assert (ds.config.get_multiprocessing_timeout_interval(), ds.config.get_watchdog_timeout()) == (1, 0.5)
    ds.config.set_watchdog_timeout(None)  # the default: three warning intervals
    ds.config.set_multiprocessing_timeout_interval(300)
    assert ds.config.get_watchdog_timeout() == 900.0
    ds.config.set_multiprocessing_timeout_interval(2)
    assert ds.config.get_watchdog_timeout() == 6.0
    ds.config.set_watchdog_timeout(1800)
    assert ds.config.get_watchdog_timeout() == 1800.0
    with pytest.raises(TypeError, match="timeout"):
        ds.config.set_watchdog_timeout("10")
    with pytest.raises(ValueError, match="timeout"):
        ds.config.set_watchdog_timeout(0)
    # MindSpore's knobs keep MindSpore's checks.
    with pytest.raises(TypeError):
        ds.config.set_multiprocessing_timeout_interval(0.5)
    with pytest.raises(ValueError):
        ds.config.set_multiprocessing_timeout_interval(0)
    with pytest.raises(TypeError):
        ds.config.set_enable_watchdog(1)


@pytest.mark.parametrize("workers", [1, 2])
def test_stuck_map_thread_raises_naming_op_worker_and_row(workers):
    rows, error, elapsed = run_bounded(numbers().map(stuck_at_5, "x", num_parallel_workers=workers))
    assert_stall_error(error, "map operation [stuck_at_5]", "['x']", "row 5", "thread sporax-dataset-")
    assert elapsed < 3.0


def test_stuck_map_process_raises_and_ends_the_workers():
    data = numbers().map(stuck_at_5_in_process, "x", num_parallel_workers=2,
                         python_multiprocessing=True)
    _, error, elapsed = run_bounded(data)
    assert_stall_error(error, "map operation [stuck_at_5_in_process]", "row 5", "worker process ")
    assert elapsed < 4.0
    deadline = time.monotonic() + 3
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []


def test_blocking_generator_source_raises_naming_the_row():
    def generate():
        for i in range(10):
            if i == 5:
                RELEASE.wait(60)
            yield (np.array(i),)
    _, error, _ = run_bounded(ds.GeneratorDataset(generate, ["x"]))
    assert_stall_error(error, "GeneratorDataset (the source generator)", "row 5")


class StuckSource:
    def __getitem__(self, index):
        if index == 70:
            time.sleep(60)
        return (np.array(index),)

    def __len__(self):
        return 100


def test_stuck_random_access_source_in_processes_names_the_index():
    data = ds.GeneratorDataset(StuckSource(), ["x"], shuffle=False, num_parallel_workers=2,
                               python_multiprocessing=True)
    _, error, _ = run_bounded(data)
    assert_stall_error(error, "source.__getitem__", "index 70", "worker process ")


def test_stuck_filter_and_per_batch_map_are_named():
    _, error, _ = run_bounded(numbers().filter(stuck_at_5, ["x"]))
    assert_stall_error(error, "filter operation", "row 5")

    def per_batch(x, info):
        if info.get_batch_num() == 2:
            RELEASE.wait(60)
        return (x,)
    _, error, _ = run_bounded(numbers().batch(4, per_batch_map=per_batch))
    assert_stall_error(error, "per_batch_map", "batch 2")


def test_warning_names_op_worker_and_row_before_the_error(caplog):
    ds.config.set_watchdog_timeout(1.6)
    with caplog.at_level(logging.WARNING, logger="sporax.dataset"):
        _, error, _ = run_bounded(numbers().map(stuck_at_5, "x", num_parallel_workers=2))
    assert_stall_error(error, "row 5")
    warnings = [record.getMessage() for record in caplog.records if "no progress" in record.getMessage()]
    assert len(warnings) == 1
    assert "map operation [stuck_at_5]" in warnings[0] and "row 5" in warnings[0]
    assert "worker thread sporax-dataset-map-" in warnings[0]
    assert "set_multiprocessing_timeout_interval" in warnings[0]


def test_watchdog_off_waits_and_only_warns(caplog):
    ds.config.set_enable_watchdog(False)

    def slow_at_5(x):
        if int(x) == 5:
            time.sleep(1.3)
        return x
    with caplog.at_level(logging.WARNING, logger="sporax.dataset"):
        rows, error, _ = run_bounded(numbers(8).map(slow_at_5, "x", num_parallel_workers=2))
    assert error is None and rows == [[i] for i in range(8)]
    assert any("watchdog is off" in record.getMessage() for record in caplog.records)


def test_slow_but_moving_pipeline_and_slow_consumer_are_not_stalls(caplog):
    def slow(x):
        time.sleep(0.15)
        return x
    with caplog.at_level(logging.WARNING, logger="sporax.dataset"):
        # 12 rows x 0.15 s on one worker: 1.8 s in all, never 0.5 s without a row done.
        rows, error, _ = run_bounded(numbers(12).map(slow, "x", num_parallel_workers=1))
        assert error is None and len(rows) == 12
        # A consumer that takes longer than the limit between rows is not a stall either.
        seen = []
        for row in numbers(3).create_tuple_iterator(num_epochs=1, output_numpy=True):
            seen.append(int(row[0]))
            time.sleep(0.7)
        assert seen == [0, 1, 2]
    assert not [record for record in caplog.records if "no progress" in record.getMessage()]


def test_only_mindspore_knob_set_still_raises_after_three_intervals(caplog):
    # A MindSpore script sets only the warning interval: it warns twice, then raises at 3 s.
    ds.config.set_watchdog_timeout(None)
    with caplog.at_level(logging.WARNING, logger="sporax.dataset"):
        _, error, elapsed = run_bounded(numbers().map(stuck_at_5, "x", num_parallel_workers=2))
    assert_stall_error(error, "row 5")
    assert 2.9 < elapsed < 5.0
    assert len([record for record in caplog.records if "no progress" in record.getMessage()]) == 2
