"""state_dict/load_state_dict hooks and extra state of nn.Cell (orders and keys recorded from MindSpore 2.10)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = nn.Dense(2, 2)
        self.b = self.a
        self.register_buffer("buf", Tensor(np.array([1.0, 2.0], np.float32)))
        self.loaded = None

    def get_extra_state(self):
        return {"k": 3}

    def set_extra_state(self, state):
        self.loaded = state

    def construct(self, x):
        return self.a(x)


def test_state_dict_keys_order_and_extra_state_round_trip():
    net = Net()
    state = net.state_dict()
    # MindSpore 2.10: own entries, extra state, then each child (a shared child under each name).
    assert list(state) == ["buf", "_extra_state", "a.weight", "a.bias", "b.weight", "b.bias"]
    assert list(state._metadata) == ["", "a", "b"]
    assert state["_extra_state"] == {"k": 3}
    assert str(net.load_state_dict(state)) == "<All keys matched successfully>"
    assert net.loaded == {"k": 3}


def test_state_dict_pre_and_post_hooks():
    net, calls = Net(), []
    net.register_state_dict_pre_hook(lambda cell, prefix, keep_vars: calls.append(("pre", prefix, keep_vars)))
    handle = net.a.register_state_dict_post_hook(
        lambda cell, state, prefix, metadata: calls.append(("post", prefix, sorted(state)[:1])))
    net.state_dict()
    assert calls == [("pre", "", False), ("post", "a.", ["_extra_state"]), ("post", "b.", ["_extra_state"])]
    handle.remove()
    calls.clear()
    net.state_dict()
    assert calls == [("pre", "", False)]


def test_state_dict_pre_hook_may_add_a_parameter():
    net = nn.Dense(2, 2)

    def add_extra(cell, prefix, keep_vars):
        cell._params["extra_param"] = Parameter(Tensor(np.array([4, 5, 6], np.int32)), name="extra_param")

    net.register_state_dict_pre_hook(add_extra)
    assert "extra_param" in net.state_dict()


def test_state_dict_post_hook_must_return_none():
    # MindSpore 2.10's RuntimeErrors and first words (recorded), for both post-hooks returning a value
    net = nn.Dense(2, 2)
    net.register_state_dict_post_hook(lambda *args: {"x": 1})
    with pytest.raises(RuntimeError, match=r"^state_dict post-hook must return None"):
        net.state_dict()
    loading = nn.Dense(2, 2)
    loading.register_load_state_dict_post_hook(lambda cell, keys: 1)
    with pytest.raises(RuntimeError, match=r"^Hooks registered with ``register_load_state_dict_post_hook`` are "
                                           r"notexpected to return new values, if incompatible_keys need to be "
                                           r"modified,it should be done inplace\."):
        loading.load_state_dict(nn.Dense(2, 2).state_dict())


def test_load_state_dict_hooks_see_prefix_and_can_clear_missing_keys():
    net, calls = Net(), []

    def pre(cell, state, prefix, metadata, strict, missing, unexpected, errors):
        calls.append((prefix, sorted(state), strict))

    def post(cell, keys):
        calls.append(("post", list(keys.missing_keys)))
        keys.missing_keys.clear()

    net.a.register_load_state_dict_pre_hook(pre)
    handle = net.register_load_state_dict_post_hook(post)
    state = net.state_dict()
    del state["buf"]
    assert str(net.load_state_dict(state)) == "<All keys matched successfully>"
    assert calls == [("a.", ["a.bias", "a.weight"], True), ("b.", ["b.bias", "b.weight"], True), ("post", ["buf"])]
    handle.remove()
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "buf"'):
        net.load_state_dict(state)


def test_load_state_dict_copies_values_and_reports_unexpected_keys():
    net = nn.Dense(2, 2)
    state = {"weight": Tensor(np.eye(2, dtype=np.float32)), "bias": Tensor(np.ones(2, np.float32)),
             "zz": Tensor(1.0)}
    with pytest.raises(RuntimeError, match='Unexpected key\\(s\\) in state_dict: "zz"'):
        net.load_state_dict(state)
    keys = net.load_state_dict(state, strict=False)
    assert keys.unexpected_keys == ["zz"] and keys.missing_keys == []
    np.testing.assert_array_equal(net.weight.asnumpy(), np.eye(2))
    out = net(Tensor(np.array([[1.0, 2.0]], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [[2.0, 3.0]])


def test_load_state_dict_size_mismatch_names_the_key():
    net = nn.Dense(2, 2)
    state = net.state_dict()
    state["weight"] = Tensor(np.ones((1, 1), np.float32))
    with pytest.raises(RuntimeError, match=r"size mismatch for weight: copying a param with shape \(1, 1\)"):
        net.load_state_dict(state)


def test_extra_state_of_base_cell_raises():
    with pytest.raises(RuntimeError, match="get_extra_state"):
        nn.Dense(2, 2).get_extra_state()
    with pytest.raises(TypeError, match="Mapping"):
        nn.Dense(2, 2).load_state_dict([1, 2])
    assert nn.Cell.T_destination.__name__ == "T_destination"
