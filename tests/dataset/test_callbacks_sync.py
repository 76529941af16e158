"""map(callbacks=...) hooks (recorded from MindSpore 2.10) and sync_wait / sync_update."""
import numpy as np

import sporax.dataset as ds


def test_ds_callback_hooks_match_mindspore():
    calls = []

    class Recorder(ds.DSCallback):
        def ds_begin(self, c):
            calls.append(("begin", c.cur_epoch_num))

        def ds_epoch_begin(self, c):
            calls.append(("eb", c.cur_epoch_num, c.cur_step_num))

        def ds_step_begin(self, c):
            calls.append(("sb", c.cur_step_num_in_epoch, c.cur_step_num))

        def ds_epoch_end(self, c):
            calls.append(("ee", c.cur_epoch_num, c.cur_step_num))

    data = ds.NumpySlicesDataset(np.arange(5), shuffle=False).map(lambda x: x, callbacks=Recorder(2))
    iterator = data.create_tuple_iterator(num_epochs=2)
    assert [len(list(iterator)) for _ in range(2)] == [5, 5]
    assert calls == [("begin", 0), ("eb", 1, 0), ("sb", 1, 1), ("sb", 3, 3), ("sb", 5, 5), ("ee", 1, 5),
                     ("eb", 2, 5), ("sb", 1, 6), ("sb", 3, 8), ("sb", 5, 10), ("ee", 2, 10)]


def test_waited_callback_paces_the_pipeline():
    seen = []

    class Waiter(ds.WaitedDSCallback):
        def sync_step_begin(self, train_run_context, ds_run_context):
            seen.append((train_run_context, ds_run_context.cur_step_num))

    waiter = Waiter()
    data = ds.NumpySlicesDataset(np.arange(3), shuffle=False).map(lambda x: x, callbacks=waiter)
    iterator = data.create_tuple_iterator(output_numpy=True)
    for step, _ in enumerate(iterator):
        waiter.step_end(f"train step {step}")
    assert seen == [("train step 0", 2), ("train step 1", 3)]


def test_sync_wait_and_update():
    received = []
    data = ds.NumpySlicesDataset(np.arange(6), shuffle=False).sync_wait(
        "cond", 2, callback=received.append).batch(2)
    batches = []
    for i, batch in enumerate(data.create_tuple_iterator(output_numpy=True)):
        batches.append(batch[0].tolist())
        data.sync_update("cond", data=i)
    assert batches == [[0, 1], [2, 3], [4, 5]] and received == [0, 1, 2]


def test_sync_wait_counts_the_batches_of_the_batch_above():
    # MindSpore 2.10 counts num_batch in batches of the batch op above sync_wait (its sync_update
    # example waits with condition_name '' and batch size 10).
    def gen():
        for i in range(30):
            yield (np.array(i),)

    dataset = ds.GeneratorDataset(gen, column_names=["input"]).sync_wait(condition_name="", num_batch=1).batch(10)
    firsts = []
    for data in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
        firsts.append(int(data["input"][0]))
        dataset.sync_update(condition_name="", data={"loss": len(firsts)})
    assert firsts == [0, 10, 20]


def _run_within(seconds, function):
    """``function()``'s result, or a failure (never a hung test) when it takes over ``seconds``."""
    import threading
    result = []
    worker = threading.Thread(target=lambda: result.append(function()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert result, f"the pipeline did not finish within {seconds} s (a hang)"
    return result[0]


def _paced_firsts(dataset, batch_size):
    firsts = []
    for data in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
        firsts.append(int(data["input"][0]))
        dataset.sync_update(condition_name="policy", data={"loss": len(firsts) * batch_size})
    return firsts


def test_sync_wait_then_parallel_map_then_batch_runs():
    # MindSpore 2.10's sync_wait example: a map between sync_wait and batch; the map's workers
    # must not wait for rows that sync_update has not allowed yet.
    def gen():
        for i in range(40):
            yield (np.array(i),)

    losses = []
    dataset = ds.GeneratorDataset(gen, column_names=["input"]).sync_wait(
        condition_name="policy", callback=lambda data: losses.append(data["loss"]))
    dataset = dataset.map(operations=[lambda x: x], input_columns=["input"], num_parallel_workers=4)
    dataset = dataset.batch(4)
    assert _run_within(30, lambda: _paced_firsts(dataset, 4)) == list(range(0, 40, 4))
    assert losses == list(range(4, 44, 4))


def test_sync_wait_then_batch_then_parallel_map_runs():
    def gen():
        for i in range(12):
            yield (np.array(i),)

    dataset = ds.GeneratorDataset(gen, column_names=["input"]).sync_wait(condition_name="policy")
    dataset = dataset.batch(3).map(operations=[lambda x: x + 100], input_columns=["input"],
                                   num_parallel_workers=3)
    assert _run_within(30, lambda: _paced_firsts(dataset, 3)) == [100, 103, 106, 109]
