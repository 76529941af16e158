"""A job of 2 CPU processes: the compiled data-parallel step is one XLA program with its all-reduce inside;
SEMI_AUTO_PARALLEL across processes forms global batches from the ranks' slices."""
import re

import numpy as np
import pytest

from tests.parallel.helpers import run_job


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return run_job("world_program.py", tmp_path_factory.mktemp("world_program"))


def test_the_data_parallel_step_is_one_program_with_an_all_reduce_and_no_host_callback(results):
    for result in results:
        assert result["one_program"]
        hlo = result["hlo"]
        assert re.search(r"\ball-reduce(-start)?\(", hlo), "the gradients' all-reduce is not in the program"
        assert "callback" not in hlo.lower() and "custom-call" not in hlo  # no host callback left


def test_two_processes_equal_one_process_on_the_concatenated_batch(results):
    single_losses = np.array(results[0]["single_losses"])
    # each rank's loss is the mean over its half of the batch; the single process's, over the whole
    np.testing.assert_allclose((np.array(results[0]["dp_losses"]) + results[1]["dp_losses"]) / 2, single_losses,
                               rtol=1e-5)
    for name, single in results[0]["single_final"].items():
        for result in results:
            np.testing.assert_allclose(result["dp_final"][name], single, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("setting", ["global_batch", "full_batch"])
def test_semi_auto_across_processes_equals_one_process_on_the_concatenated_batch(results, setting):
    # full_batch=False: each rank's half of the rows is its slice of the global batch of 8 rows;
    # full_batch=True: every rank feeds all 8 rows. Both train as one process on the 8 rows.
    single_losses, single_weight = results[0]["semi_auto_single"]
    for result in results:
        losses, weight = result[setting]
        np.testing.assert_allclose(losses, single_losses, rtol=1e-5)
        np.testing.assert_allclose(weight, single_weight, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_send_and_receive_deliver_by_tag(results, mode):
    message = np.arange(16, dtype=np.float32).reshape(2, 8)
    np.testing.assert_array_equal(results[0][f"send_receive_{mode}"], message)  # Send returns its input
    np.testing.assert_array_equal(results[1][f"send_receive_{mode}"], message * 2 - message)


def test_compiled_send_and_receive_are_collective_permutes_in_the_program(results):
    for result in results:
        hlo = result["send_receive_hlo"]
        assert re.search(r"\bcollective-permute(-start)?\(", hlo)
        assert "callback" not in hlo.lower() and "custom-call" not in hlo


@pytest.mark.parametrize("way", ["split_grads_pynative", "split_jit_grads_pynative", "split_grads_graph",
                                 "split_jit_grads_graph"])
def test_gradients_cross_processes_through_send_and_receive(results, way):
    # Rank 0: Dense(4, 6), tanh, Send; rank 1: Receive, Dense(6, 2), mean squared error. Receive's
    # gradient travels back to rank 0 as the gradient of Send's input: each rank's weight gradients
    # are those of the one-process network (first layer: rank 0's; second: rank 1's).
    whole = results[0]["whole_grads"]
    for rank, expected in ((0, whole[:2]), (1, whole[2:])):
        for got, want in zip(results[rank][way], expected):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        assert np.abs(np.array(results[rank][way][0])).max() > 1e-3
