"""The parallel context through MindSpore's private helpers (mindspore.parallel._utils)."""
import pytest

from sporax.core import context
from sporax.parallel import context_view


@pytest.fixture
def clean_context():
    context.reset_auto_parallel_context()
    yield
    context.reset_auto_parallel_context()


def test_is_sharding_propagation(clean_context):
    # MindSpore 2.10: False by default, True once the search mode is sharding propagation.
    assert context_view._is_sharding_propagation() is False
    context.set_auto_parallel_context(search_mode="sharding_propagation")
    assert context_view._is_sharding_propagation() is True
    context.set_auto_parallel_context(search_mode="dynamic_programming")
    assert context_view._is_sharding_propagation() is False
