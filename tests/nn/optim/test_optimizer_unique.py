"""Optimizer.unique: MindSpore's flag for merging duplicate sparse-gradient indices."""
import pytest

from sporax import nn


def test_unique_defaults_true_and_takes_a_bool():
    # MindSpore 2.10: nn.Momentum(...).unique is True; the setter accepts only a bool.
    optimizer = nn.Momentum(nn.Dense(2, 3).trainable_params(), 0.1, 0.9)
    assert optimizer.unique is True
    optimizer.unique = False
    assert optimizer.unique is False
    with pytest.raises(TypeError, match="'unique' must be bool"):
        optimizer.unique = 1


def test_a_custom_optimizer_reads_it_as_mindspores_docstring_example():
    class Custom(nn.Optimizer):
        def __init__(self, params, learning_rate):
            super().__init__(learning_rate, params)

    optimizer = Custom(nn.Dense(2, 3).trainable_params(), 0.01)
    assert optimizer.unique is True and optimizer.target == "CPU"
