"""``mindspore.parallel.strategy`` / ``train._utils`` helpers answer as MindSpore 2.10 does in one process."""
import pytest

from sporax import nn
from sporax.parallel.strategy_metadata import (enable_save_strategy_online, get_current_strategy_metadata,
                                               get_parameter_redundancy, get_strategy_metadata,
                                               remove_param_redundancy)


def test_no_metadata_without_a_parallel_strategy():
    # MindSpore 2.10, nn.Dense(2, 2) never compiled in parallel: None, None, None.
    net = nn.Dense(2, 2)
    assert enable_save_strategy_online() is None
    assert get_strategy_metadata(net) is None and get_strategy_metadata(net, 0) is None
    assert get_current_strategy_metadata(net) is None


def test_parameter_redundancy_of_a_cell_needs_init():
    # MindSpore 2.10 raises RuntimeError "Distributed Communication has not been inited..." before init().
    with pytest.raises(RuntimeError, match="not been inited"):
        get_parameter_redundancy(nn.Dense(2, 2))


@pytest.mark.parametrize("redundancy, keep, expected", [
    # recorded with MindSpore 2.10's mindspore.train._utils.remove_param_redundancy
    ({"a": ((0,),), "b": ((0,),)}, 1, {0: {"a", "b"}}),
    ({"a": ((0, 1, 2, 3),), "b": ((0, 1, 2, 3),), "c": ((0, 1, 2, 3),)}, 1, {0: {"a"}, 1: {"b"}, 2: {"c"}}),
    ({"a": ((0, 1, 2, 3),), "b": ((0, 1, 2, 3),), "c": ((0, 1, 2, 3),)}, 2,
     {0: {"a"}, 1: {"a", "b"}, 2: {"c", "b"}, 3: {"c"}}),
    ({"a": ((0, 2), (1, 3)), "b": ((0, 1, 2, 3),)}, 1, {0: {"b", "a"}, 1: {"a"}}),
    ({"a": ((0, 2), (1, 3)), "b": ((0, 1, 2, 3),)}, 2, {0: {"b", "a"}, 1: {"b", "a"}, 2: {"a"}, 3: {"a"}}),
    ({}, 1, {}),
])
def test_remove_param_redundancy_as_mindspore(redundancy, keep, expected):
    assert remove_param_redundancy(redundancy, keep) == expected
