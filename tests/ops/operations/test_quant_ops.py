"""MindSpore's quantisation Primitives (``_quant_ops``): constructed with the attributes MindSpore 2.10 records,
and a call refused with a RuntimeError subclass, as MindSpore 2.10 on CPU refuses it ("Unsupported op
[FakeQuantPerLayer] on CPU"). Values recorded on MindSpore 2.10 CPU."""
import pytest

import sporax
from sporax.ops.operations import quant_ops


def test_attributes_are_mindspore_2_10s():
    assert quant_ops.FakeQuantPerLayer(num_bits=4).attrs == {
        "num_bits": 4, "ema": False, "ema_decay": 0.999, "quant_delay": 0, "symmetric": False,
        "narrow_range": False, "training": True, "input_names": ["x", "min", "max"], "output_names": ["out"]}
    assert quant_ops.MinMaxUpdatePerChannel().attrs == {
        "ema": False, "ema_decay": 0.999, "channel_axis": 1, "input_names": ["x", "min", "max"],
        "output_names": ["min_up", "max_up"]}
    assert quant_ops.FakeQuantWithMinMaxVars().attrs == {"num_bits": 8, "narrow_range": False}
    assert quant_ops.IFMR().attrs["search_range"] == (0.7, 1.3)
    assert quant_ops.WtsARQ(8, True).attrs == {"num_bits": 8, "offset_flag": True}


def test_fake_quant_param_records_its_keywords():
    marker = quant_ops.FakeQuantParam.linear_quant_param(sporax.QuantDtype.INT4, [0.5, 0.25], [1, 2], True)
    assert marker.name == "FakeQuantParam"
    assert marker.attrs == {
        "quant_dtype": 3, "quant_algo_name": "linear_quant_algo", "is_per_channel": True,
        "kwargs": {"linear_quant_scale": [0.5, 0.25], "linear_quant_zero_point": [1, 2]},
        "linear_quant_scale": [0.5, 0.25], "linear_quant_zero_point": [1, 2]}
    marker = quant_ops.FakeQuantParam(sporax.QuantDtype.INT8, "algo", False, foo=3)
    assert marker.attrs == {"quant_dtype": 7, "quant_algo_name": "algo", "is_per_channel": False,
                            "kwargs": {"foo": 3}, "foo": 3}
    assert marker.quant_dtype == 7


@pytest.mark.parametrize("name", ["FakeQuantPerLayer", "FakeQuantPerChannel"])
def test_unsupported_bit_widths_are_refused(name):
    for bits in (4, 7, 8):
        getattr(quant_ops, name)(num_bits=bits)
    with pytest.raises(ValueError, match="'num_bits' is not support"):
        getattr(quant_ops, name)(num_bits=6)


@pytest.mark.parametrize("name", [name for name in quant_ops.__all__ if name != "FakeQuantParam"])
def test_a_call_raises_naming_the_primitive(name):
    primitive = getattr(quant_ops, name)(8, True) if name == "WtsARQ" else getattr(quant_ops, name)()
    with pytest.raises(RuntimeError, match=rf"Unsupported op \[{name}\] on CPU") as caught:
        primitive(None)
    assert isinstance(caught.value, NotImplementedError)


def test_served_at_mindspores_private_path():
    import sporax.compat
    sporax.compat.install()
    from mindspore.ops.operations._quant_ops import FakeQuantParam, FakeQuantPerLayer
    assert FakeQuantPerLayer is quant_ops.FakeQuantPerLayer and FakeQuantParam is quant_ops.FakeQuantParam
