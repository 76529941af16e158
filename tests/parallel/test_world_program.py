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
