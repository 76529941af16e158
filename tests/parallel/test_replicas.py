"""Replica groups of a layout (MindSpore 2.10's ``get_parameter_redundancy`` answers for the fixture strategies),
``parameter_broadcast`` in one process and ``get_ckpt_path_with_strategy``."""
import os

import pytest

import sporax as ms
from sporax.parallel.replicas import _current_rank_replicas, replica_groups

DATA = os.path.join(os.path.dirname(__file__), "..", "fixtures", "parallel", "dist_ckpt")


@pytest.mark.parametrize("file_name, expected", [
    ("strategy.ckpt", {"dense.bias": ((0, 2), (1, 3)), "dense.weight": ((0,), (1,), (2,), (3,)),
                       "scale": ((0, 1, 2, 3),)}),
    ("dst_strategy.ckpt", {"dense.bias": ((0, 1, 2, 3),), "dense.weight": ((0,), (1,), (2,), (3,)),
                           "scale": ((0, 1, 2, 3),)}),
])
def test_replica_groups_match_mindspore(file_name, expected):
    assert replica_groups(ms.build_searched_strategy(os.path.join(DATA, file_name))) == expected


def test_replica_groups_of_a_data_parallel_layout():
    layout = {"w": [[2, 2], [0, -1]], "b": [[2, 2], [-1]]}
    groups = replica_groups(layout, initial_rank=4)
    assert groups == {"b": ((4, 5, 6, 7),), "w": ((4, 6), (5, 7))}
    assert _current_rank_replicas(groups, 5) == (5, 7)


def test_parameter_broadcast_in_one_process_keeps_the_values():
    net = ms.nn.Dense(2, 2)
    before = net.weight.asnumpy().copy()
    ms.parameter_broadcast(net, {"weight": [[2], [-1, -1]]})
    assert (net.weight.asnumpy() == before).all()


def test_ckpt_path_falls_back_to_a_replica(tmp_path, monkeypatch):
    monkeypatch.setenv("RANK_ID", "1")
    (tmp_path / "rank_1").mkdir()
    own = tmp_path / "rank_1" / "net.ckpt"
    assert ms.get_ckpt_path_with_strategy(str(own), os.path.join(DATA, "dst_strategy.ckpt")) is None
    # Under dst_strategy.ckpt dense.weight is split over all 4 ranks: rank 1 has no replica.
    (tmp_path / "rank_0").mkdir()
    (tmp_path / "rank_0" / "net.ckpt").write_bytes(b"")
    assert ms.get_ckpt_path_with_strategy(str(own), os.path.join(DATA, "dst_strategy.ckpt")) is None
    own.write_bytes(b"")
    assert ms.get_ckpt_path_with_strategy(str(own), os.path.join(DATA, "dst_strategy.ckpt")) == str(own)


def test_ckpt_path_uses_a_data_parallel_replica(tmp_path, monkeypatch, ):
    monkeypatch.setenv("RANK_ID", "3")
    (tmp_path / "rank_1").mkdir()
    (tmp_path / "rank_1" / "net.ckpt").write_bytes(b"")
    strategy = os.path.join(DATA, "strategy.ckpt")
    # Only dense.bias and scale are replicated for rank 3 ((1, 3) and all ranks); dense.weight is not.
    assert ms.get_ckpt_path_with_strategy(str(tmp_path / "rank_3" / "net.ckpt"), strategy) is None
