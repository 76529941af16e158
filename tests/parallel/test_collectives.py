"""The world program's all-reduce on CPU: a large sum goes in pieces (sporax.parallel.collectives)."""
import jax
import numpy as np
from jax.sharding import PartitionSpec

from sporax.parallel import collectives
from sporax.state import world


def _summed(value, monkeypatch, limit):
    monkeypatch.setattr(collectives, "_CPU_ALL_REDUCE_BYTES", limit)
    program = jax.shard_map(collectives._world_sum, mesh=world.world_mesh(1), in_specs=PartitionSpec(world.AXIS),
                            out_specs=PartitionSpec(world.AXIS))
    return np.asarray(program(value)), str(jax.make_jaxpr(program)(value)).count("psum")


def test_a_sum_over_the_limit_goes_in_pieces_of_the_limit(monkeypatch):
    value = np.arange(2 * 5, dtype=np.float32).reshape(2, 5)  # 40 bytes: pieces of 16, 16 and 8
    summed, count = _summed(value, monkeypatch, 16)
    np.testing.assert_array_equal(summed, value)  # one process: the sum is the value, in its shape
    assert count == 3


def test_a_sum_under_the_limit_is_one_all_reduce(monkeypatch):
    value = np.ones((2, 5), np.float32)
    summed, count = _summed(value, monkeypatch, 1 << 22)
    np.testing.assert_array_equal(summed, value)
    assert count == 1
