"""ops.NeighborExchange(V2) and comm_func's point-to-point/all-to-all functions: jobs of 2 and 4 CPU processes
(values and gradients against NumPy; PyNative, GRAPH and jit), and MindSpore's argument checks in one process."""

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from tests.parallel.helpers import run_job

MODES = ("pynative", "graph")


# Four processes check the ring beyond a pair; they take twice the two-process job's time: slow set.
@pytest.fixture(scope="module", params=[2, pytest.param(4, marks=pytest.mark.slow)], ids=["2_processes", "4_processes"])
def job(request, tmp_path_factory):
    size = request.param
    return size, run_job("point_to_point.py", tmp_path_factory.mktemp(f"point_to_point_{size}"), size)


def _ring_inputs(size):
    return [np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * rank for rank in range(size)]


@pytest.mark.parametrize("mode", MODES)
def test_neighbor_exchange_ring_values_and_gradients_against_numpy(job, mode):
    size, results = job
    inputs = _ring_inputs(size)
    for rank, result in enumerate(results):
        following, preceding = (rank + 1) % size, (rank - 1) % size
        got = result[mode]
        np.testing.assert_array_equal(got["ring"][0], inputs[preceding])  # x of the preceding rank
        np.testing.assert_array_equal(got["ring"][1], inputs[following].sum(0))  # column sums of the following
        # loss_r = sum(x_{r-1} * (r + 1)) + sum(colsum(x_{r+1})^2): x_q feeds rank q+1's first and rank q-1's
        # second output, so d/dx_q = (q + 2) + 2 * colsum(x_q) on every row.
        expected = (following + 1) + 2 * np.broadcast_to(inputs[rank].sum(0), (2, 3))
        np.testing.assert_allclose(got["ring_grad"], expected, rtol=1e-6)
        np.testing.assert_allclose(got["ring_jit_grad"], expected, rtol=1e-6)


def _grid(size):
    return (2, 1) if size == 2 else (2, 2)


def _halo_window(size, rank, picture):
    """Rank's block of the global picture with the neighbouring rows/columns it receives."""
    rows, columns = _grid(size)
    row, column = divmod(rank, columns)
    top = 1 if row > 0 else 0
    bottom = 1 if row < rows - 1 else 0
    left = 2 if column > 0 else 0  # the left neighbour sends its 2 rightmost columns
    right = 1 if column < columns - 1 else 0
    return (slice(None), slice(None), slice(row * 3 - top, (row + 1) * 3 + bottom),
            slice(column * 4 - left, (column + 1) * 4 + right))


@pytest.mark.parametrize("mode", MODES)
def test_neighbor_exchange_v2_halo_values_and_gradients_against_numpy(job, mode):
    size, results = job
    rows, columns = _grid(size)
    blocks = [np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4) + 100 * rank for rank in range(size)]
    picture = np.concatenate([np.concatenate(blocks[r * columns:(r + 1) * columns], axis=3) for r in range(rows)],
                             axis=2)
    # The gradient of sum(out_s * w_s) over all ranks s: each w_s lands on the global cells its window covers.
    weight_picture = np.zeros_like(picture)
    for rank, result in enumerate(results):
        window = _halo_window(size, rank, picture)
        np.testing.assert_array_equal(result[mode]["halo"], picture[window])
        weight_picture[window] += np.array(result[mode]["halo_weight"], np.float32)
    for rank, result in enumerate(results):
        row, column = divmod(rank, columns)
        expected = weight_picture[:, :, row * 3:(row + 1) * 3, column * 4:(column + 1) * 4]
        np.testing.assert_allclose(result[mode]["halo_grad"], expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(result[mode]["halo_jit_grad"], expected, rtol=1e-5, atol=1e-6)
    if size == 4:  # rank 0 (top-left) has a right, bottom and bottom-right neighbour only
        assert results[0]["neighbours"] == [-1, -1, 1, 3, 2, -1, -1, -1]
    if mode == "graph":  # each rank's messages reach every rank: one compiled program, 2 or 4 processes
        assert all(result[mode]["halo_one_program"] for result in results)


def test_neighbor_exchange_v2_with_empty_edges_only_grows_the_received_sides(job):
    size, results = job
    rows, columns = _grid(size)
    for rank, result in enumerate(results):
        row, _ = divmod(rank, columns)
        assert result["empty_edges"] == [1, 2, 3 + (row > 0) + (row < rows - 1), 4]


@pytest.mark.parametrize("mode", MODES)
def test_one_way_neighbor_exchange_sends_without_output_and_receives_without_input(job, mode):
    _, results = job
    inputs = _ring_inputs(2)
    np.testing.assert_array_equal(results[0][mode]["send_only"], inputs[0] + 1)  # the send gave None
    np.testing.assert_array_equal(results[1][mode]["recv_only"], inputs[0] * 2)


def _exchange(**changes):
    arguments = dict(send_rank_ids=[0], recv_rank_ids=[0], recv_shapes=([2, 3],), send_shapes=([2, 3],),
                     recv_type=ms.float32)
    arguments.update(changes)
    return ops.NeighborExchange(**arguments)


X = Tensor(np.ones((2, 3), np.float32))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_neighbor_exchange_to_itself_in_a_world_of_one(mode):
    ms.set_context(mode=mode)
    try:
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.exchange = _exchange()

            def construct(self, t):
                return self.exchange((t * 3,))[0]

        np.testing.assert_array_equal(Net()(X).asnumpy(), 3 * np.ones((2, 3)))
        np.testing.assert_array_equal(ms.grad(lambda t: (Net()(t) ** 2).sum())(X).asnumpy(), 18 * np.ones((2, 3)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("changes, error, message", [
    # (the checks and messages of MindSpore 2.10's shape inference, recorded with its GRAPH mode on CPU)
    (dict(send_shapes=([3, 4],)), RuntimeError,
     r"input\[0\] shape must be equal to attr shape, but got input\[0\] shape: \[2,3\], attr shape : \[3,4\]"),
    (dict(send_rank_ids=[0, 1]), ValueError, "attr 'send_shapes' size must be equal to attr  'send_rank_ids' size"),
    (dict(recv_rank_ids=[0, 1]), ValueError, "attr 'recv_shapes' size must be equal to attr  'recv_rank_ids' size"),
    (dict(recv_type="float32"), TypeError, "attr 'recv_type' must be a mindspore data type"),
    (dict(group=3), TypeError, "attr 'group' must be a str"),
    (dict(recv_shapes=[[2, 3]]), TypeError, r"attr 'recv_shapes' must be a tuple\(list, list, ...\)"),
    (dict(send_rank_ids=(0,)), TypeError, r"attr 'send_rank_ids' must be a list\[int, int, ...\]"),
    (dict(send_rank_ids=[5]), ValueError, r"send rank must be in \[0, 1\)"),
])
def test_neighbor_exchange_checks_its_attributes_as_mindspore(changes, error, message):
    exchange = _exchange(**changes)  # MindSpore checks at the first call, not in __init__
    with pytest.raises(error, match=message):
        exchange((X,))


def test_neighbor_exchange_checks_its_inputs():
    with pytest.raises(RuntimeError, match="input tuple size must be equal to attr 'send_shapes' size"):
        _exchange()((X, X))
    with pytest.raises(ValueError, match="'input_numbers' must be equal to 0"):
        _exchange(send_rank_ids=[], send_shapes=())((X,))
    with pytest.raises(TypeError, match="tuple of Tensors"):
        _exchange()(X)


NONE = [-1] * 8


@pytest.mark.parametrize("arguments, error, message", [
    # MindSpore checks rank ranges in __init__ against the group size (1 here)
    ((NONE[:0] + [1] + NONE[1:], [0, 1, 0, 0], NONE, [0, 1, 0, 0], "NCHW"), ValueError,
     r"The 'rank_id in send_rank_ids' must be in range of \[0, 1\), but got 1 with type 'int'"),
    ((NONE, [0, 1, 0, 0], NONE[:7] + [5], [0, 1, 0, 0], "NCHW"), ValueError,
     r"'rank_id in recv_rank_ids' must be in range of \[0, 1\), but got 5"),
    (([0.0] + NONE[1:], [0, 1, 0, 0], NONE, [0, 1, 0, 0], "NCHW"), TypeError,
     "The 'rank_id in send_rank_ids' must be 'int',  but got 'float'"),
])
def test_neighbor_exchange_v2_checks_ranks_when_created(arguments, error, message):
    with pytest.raises(error, match=message):
        ops.NeighborExchangeV2(*arguments)


@pytest.mark.parametrize("arguments, shape, error, message", [
    ((NONE, [0, 1, 0, 0], NONE, [0, 1, 0, 0], "NHWC"), (1, 1, 2, 2), ValueError, "only support NCHW now"),
    ((NONE[:7], [0, 1, 0, 0], NONE, [0, 1, 0, 0], "NCHW"), (1, 1, 2, 2), ValueError,
     "attr 'send_rank_ids' size must be equal to attr_value size"),
    ((NONE, [0, -1, 0, 0], NONE, [0, 1, 0, 0], "NCHW"), (1, 1, 2, 2), ValueError, "must be >=0"),
    (([0] + NONE[1:], [3, 0, 0, 0], [0] + NONE[1:], [1, 0, 0, 0], "NCHW"), (1, 1, 2, 2), ValueError,
     r"attr send_lens\[0\] must be less than or equal to input size in H dim"),
    ((NONE, [0, 0, 0, 0], NONE, [0, 0, 0, 0], "NCHW"), (2, 2), ValueError, "input shape size must be 4"),
    ((NONE, [0, 0, 0, 0], [-1, 0] + NONE[2:], [0, 0, 0, 0], "NCHW"), (1, 1, 2, 2), ValueError,
     r"recv_rank_ids\[0\] and recv_rank_ids\[2\] can not be -1, or recv_rank_ids\[1\] must be -1"),
])
def test_neighbor_exchange_v2_checks_as_mindspore_when_called(arguments, shape, error, message):
    exchange = ops.NeighborExchangeV2(*arguments)
    with pytest.raises(error, match=message):
        exchange(Tensor(np.ones(shape, np.float32)))


def test_neighbor_exchange_v2_with_itself_as_top_and_bottom_neighbour_in_a_world_of_one():
    # rank 0 sends its top row to itself and receives it as its bottom halo (a periodic column of one)
    exchange = ops.NeighborExchangeV2([0] + NONE[1:], [1, 0, 0, 0], NONE[:4] + [0] + NONE[5:], [0, 1, 0, 0], "NCHW")
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 3, 2)
    np.testing.assert_array_equal(exchange(Tensor(x)).asnumpy(), np.concatenate([x, x[:, :, :1]], axis=2))
    grad = ms.grad(lambda t: (exchange(t) ** 2).sum())(Tensor(x)).asnumpy()
    expected = 2 * x
    expected[:, :, 0] *= 2  # the top row appears twice in the output
    np.testing.assert_array_equal(grad, expected)


def test_isend_irecv_around_the_ring_whatever_order_the_ranks_post_them(job):
    size, results = job
    for rank, result in enumerate(results):
        preceding, following = (rank - 1) % size, (rank + 1) % size
        got = result["comm_func"]
        np.testing.assert_array_equal(got["irecv"], np.full((2, 2), preceding + 1.0))
        np.testing.assert_array_equal(got["irecv_read_without_wait"], np.full((2, 2), 10 * (following + 1.0)))
        assert got["batch"][0] == []  # the isend position holds a meaningless scalar, as MindSpore
        np.testing.assert_array_equal(got["batch"][1], np.full((2, 2), preceding + 1.0))


def test_all_to_all_with_output_shape_against_numpy(job):
    size, results = job
    for rank, result in enumerate(results):
        got = result["comm_func"]["all_to_all"]
        assert result["comm_func"]["all_to_all_handle"] is None
        for other in range(size):
            np.testing.assert_array_equal(got[other], np.full((other + 1, rank + 1), 10.0 * other + rank))


def test_all_to_all_single_with_output_shape_against_numpy(job):
    size, results = job
    rows = size * (size + 1) // 2
    inputs = [np.stack([np.arange(rows) + 100 * rank, -np.arange(rows)], axis=1).astype(np.float32)
              for rank in range(size)]
    offsets = [sum(range(1, i + 1)) for i in range(size)]  # rank i's block for rank r starts at 1 + ... + r
    for rank, result in enumerate(results):
        expected = np.concatenate([inputs[other][offsets[rank]:offsets[rank] + rank + 1] for other in range(size)])
        np.testing.assert_array_equal(result["comm_func"]["all_to_all_single_uneven"], expected)
        even = [np.arange(6 * size, dtype=np.float32).reshape(2 * size, 3) + 1000 * other for other in range(size)]
        np.testing.assert_array_equal(result["comm_func"]["all_to_all_single_even"],
                                      np.concatenate([block[2 * rank:2 * rank + 2] for block in even]))


def test_all_to_all_v_c_writes_the_rows_of_the_count_matrix_into_the_output(job):
    size, results = job
    counts = [[i + j + 1 for j in range(size)] for i in range(size)]
    inputs = [np.arange(sum(counts[i]), dtype=np.float32) + 100 * i for i in range(size)]
    for rank, result in enumerate(results):
        expected = np.concatenate([inputs[i][sum(counts[i][:rank]):sum(counts[i][:rank + 1])] for i in range(size)])
        np.testing.assert_array_equal(result["comm_func"]["all_to_all_v_c"], expected)
        assert result["comm_func"]["all_to_all_v_c_handle"] is None


def test_all_to_all_v_c_in_a_world_of_one_as_the_mindspore_example():
    from sporax.parallel import comm_func

    output = Tensor(np.zeros(3, np.float32))
    assert comm_func.all_to_all_v_c(output, Tensor(np.array([0.0, 1.0, 2.0], np.float32)), [3]) is None
    np.testing.assert_array_equal(output.asnumpy(), [0.0, 1.0, 2.0])
    with pytest.raises(TypeError, match="send_count_matrix must be square matrix, but got 4."):
        comm_func.all_to_all_v_c(output, output, [0, 3, 3, 0])
    with pytest.raises(TypeError, match="send_count_matrix must be list"):
        comm_func.all_to_all_v_c(output, output, (3,))


def test_comm_func_point_to_point_checks_as_mindspore():
    from sporax.parallel import comm_func

    with pytest.raises(TypeError, match="For isend, the input tensor must be tensor"):
        comm_func.isend(np.ones(2))
    with pytest.raises(ValueError, match="Expected ``op`` to be of type ``isend`` or `irecv``, but got send"):
        comm_func.P2POp("send", X, 0)
    with pytest.raises(TypeError, match="Expected ``tensor`` to be type of tuple or Tensor"):
        comm_func.P2POp("isend", [1], 0)
    with pytest.raises(NotImplementedError, match="``tag`` not support yet."):
        comm_func.P2POp("isend", X, 0, tag=1)
    with pytest.raises(TypeError, match="peer must be type of int"):
        comm_func.P2POp("isend", X, 0.0)
    with pytest.raises(TypeError, match="p2p_op_list can not be empty list."):
        comm_func.batch_isend_irecv([])
    with pytest.raises(ValueError, match="'recv_dtype' of 0th P2POp in p2p_op_list is None"):
        comm_func.batch_isend_irecv([comm_func.P2POp("irecv", (2,), 0)])
    with pytest.raises(ValueError, match="output shape at dim 0 must be divided by world_size|needs 1 sizes"):
        comm_func.all_to_all_single_with_output_shape((3,), X, output_split_sizes=[2])
    with pytest.raises(TypeError, match="all_to_all input dtype must be the same"):
        comm_func.all_to_all_with_output_shape([(2, 3), (2, 3)], [X, Tensor(np.ones((2, 3), np.int32))])


def test_isend_irecv_refuse_jit_without_a_gradient_and_check_the_peer_under_one():
    from sporax.communication.comm_func import irecv, isend

    x = ms.Tensor(np.ones(2, np.float32))

    def sends(value):
        isend(value * 2, 1)
        return value.sum()

    # Under a gradient the message is sent inside the differentiated program (tests/parallel/test_p2p_gradients.py);
    # rank 1 is not in this one-process world.
    with pytest.raises(ValueError, match=r"For isend, rank 1 is not a member of group 'hccl_world_group'"):
        ms.grad(sends)(x)

    def receives(value):
        irecv(value, 1)
        return value.sum()

    for function, name in ((sends, "isend"), (receives, "irecv")):
        with pytest.raises(RuntimeError, match=f"For {name}, only PyNative mode is supported"):
            ms.jit(function)(x)
