"""``mindspore._c_expression``'s context queries answer what MindSpore 2.10 answers on CPU."""
import pytest

from sporax.core.backend_context import MSContext, is_reboot_node, swap_cache


def test_queries_answer_as_mindspore_on_cpu():
    # Recorded with MindSpore 2.10 on CPU: get_ascend_soc_version() == '', is_reboot_node() is False.
    assert MSContext.get_instance() is MSContext.get_instance()
    assert MSContext.get_instance().get_ascend_soc_version() == ""
    assert is_reboot_node() is False


def test_swap_cache_is_refused():
    with pytest.raises(NotImplementedError, match="swap_cache"):
        swap_cache(None, None, None, True)
