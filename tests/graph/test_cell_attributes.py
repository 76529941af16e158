"""cell_attr_register (mindspore._extends): a decorated Cell __init__ records its arguments in
cell_init_args; the strings are MindSpore 2.10's (recorded from it)."""
import pytest

from sporax import nn
from sporax.graph import cell_attr_register


class Scale(nn.Cell):
    @cell_attr_register
    def __init__(self, factor, bias=0.0):
        super().__init__()
        self.factor = factor


class Named(nn.Cell):
    @cell_attr_register(attrs=["factor", "absent"])
    def __init__(self, factor):
        super().__init__()
        self.factor = factor


def test_arguments_as_given_are_recorded():
    assert Scale(2.0).cell_init_args == "Scaledict_values([2.0])"
    assert Scale(2.0, bias=1).cell_init_args == "Scaledict_values([2.0, 1])"
    assert Scale(2.0).factor == 2.0


def test_listed_attributes_that_exist_are_recorded():
    assert Named(3).cell_init_args == "Named[3]"


def test_attrs_of_another_kind_is_refused():
    with pytest.raises(ValueError, match="attrs must be a list of str or a str"):
        cell_attr_register(attrs=3)


def test_served_as_mindspore_extends():
    import sporax.compat

    sporax.compat.install()
    from mindspore._extends import cell_attr_register as served

    assert served is cell_attr_register
