"""Parameter and ParameterTuple: construction, names, set_data, clone, printing, pytree (behaviour from MindSpore 2.10)."""
import copy
import pickle

import jax
import numpy as np
import pytest

import sporax.ops  # noqa: F401
from sporax.core import Parameter, ParameterTuple, Tensor, dtype as ms
from sporax.core.initializer import Normal, One, initializer


def test_repr_str_format():
    p = Parameter(Tensor(np.ones((2, 3)), ms.float32), name="fc.weight")
    text = "Parameter (name=fc.weight, shape=(2, 3), dtype=Float32, requires_grad=True)"
    assert repr(p) == str(p) == f"{p}" == text
    q = Parameter(Tensor([1.0, 2.0]), name="b", requires_grad=False)
    assert repr(q) == "Parameter (name=b, shape=(2,), dtype=Float32, requires_grad=False)"


@pytest.mark.parametrize("data, dtype, shape", [
    (3, ms.int32, ()), (1.0, ms.float32, ()), ([1, 2], ms.int64, (2,)),
    (np.ones(3), ms.float64, (3,)), (Tensor(np.ones((2, 2), np.float16)), ms.float16, (2, 2)),
])
def test_construction_dtypes(data, dtype, shape):
    p = Parameter(data, name="p")
    assert p.dtype is dtype and p.shape == shape
    assert isinstance(p, Tensor)


def test_bad_inputs():
    with pytest.raises(ValueError, match="can not be `bool`"):
        Parameter(True)
    with pytest.raises(TypeError, match="default_input"):
        Parameter((1.0,))
    with pytest.raises(ValueError, match="name should be 'string'"):
        Parameter(1.0, name=3)
    with pytest.raises(TypeError, match="requires_grad"):
        Parameter(1.0, requires_grad=1)


def test_automatic_names_are_distinct():
    a, b = Parameter(1.0), Parameter(1.0)
    assert a.name.startswith("Parameter#") and a.name != b.name


def test_lazy_tensor_is_filled_at_construction():
    p = Parameter(Tensor(shape=(2, 2), dtype=ms.float32, init=One()), name="lz")
    assert p._array is not None
    np.testing.assert_array_equal(p.asnumpy(), np.ones((2, 2), np.float32))
    q = Parameter(initializer("zeros", (3,), ms.float16), name="z")
    assert q.dtype is ms.float16 and q.asnumpy().tolist() == [0, 0, 0]


def test_attributes():
    p = Parameter(Tensor([1.0, 2.0]), name="a")
    assert type(p.data) is Tensor and p.data is not p  # MindSpore 2.10: a plain Tensor (see below)
    value = p.value()
    assert type(value) is Tensor and value.asnumpy().tolist() == [1.0, 2.0]
    assert (p.layerwise_parallel, p.parallel_optimizer, p.requires_grad) == (False, True, True)
    assert (p.key, p.unique, p.sliced, p.comm_fusion) == (-1, False, False, 1)
    assert p.param_info.name == "a"
    p.name = "renamed"
    p.requires_grad = False
    assert p.param_info.name == "renamed" and p.param_info.requires_grad is False
    assert p.init_data() is p


def test_set_data_casts_to_parameter_dtype_and_accepts_new_shapes():
    p = Parameter(Tensor(np.ones((2, 3)), ms.float32), name="w")
    holder = p
    assert p.set_data(Tensor(np.zeros((2, 3)), ms.float64)) is p
    assert p.dtype is ms.float32 and holder.asnumpy().sum() == 0
    p.set_data(Tensor(np.zeros((5,)), ms.float32))
    assert p.shape == (5,)
    p.set_data(1.5)
    assert p.shape == () and float(p.asnumpy()) == 1.5
    q = Parameter(Tensor(np.ones(2), ms.int32), name="i")
    q.set_data(Tensor([2.7, 3.2]))
    assert q.dtype is ms.int32 and q.asnumpy().tolist() == [2, 3]
    with pytest.raises(TypeError, match="Parameter data must be"):
        p.set_data(np.zeros(3))


def test_set_data_is_seen_by_every_holder():
    p = Parameter(Tensor([1.0, 2.0]), name="w")
    holders = [p, (p,)]
    p.set_data(Tensor([5.0, 6.0]))
    assert holders[1][0].asnumpy().tolist() == [5.0, 6.0]


def test_clone_and_copy():
    p = Parameter(Tensor([1.0, 2.0]), name="x", requires_grad=False)
    c = p.clone()
    assert c is not p and c.name == "x" and c.requires_grad is False
    c.set_data(Tensor([9.0, 9.0]))
    assert p.asnumpy().tolist() == [1.0, 2.0]
    assert p.clone(init="ones").asnumpy().tolist() == [1.0, 1.0]
    assert p.clone(init=Normal()).shape == (2,)
    d = copy.deepcopy(p)
    assert d.name == "x" and d is not p and d.asnumpy().tolist() == [1.0, 2.0]
    assert p.copy().name == "x"
    restored = pickle.loads(pickle.dumps(p))
    assert repr(restored) == repr(p) and restored.asnumpy().tolist() == [1.0, 2.0]


def test_arithmetic_gives_plain_tensors():
    p = Parameter(Tensor([1.0, 2.0]), name="p")
    q = p
    p += 1  # MindSpore: a new Tensor; the Parameter keeps its value
    assert type(p) is Tensor and p.asnumpy().tolist() == [2.0, 3.0]
    assert isinstance(q, Parameter) and q.asnumpy().tolist() == [1.0, 2.0]
    assert type(q * q) is Tensor and type(-q) is Tensor


def test_setitem_changes_the_parameter_in_place():
    p = Parameter(Tensor([1.0, 2.0]), name="p")
    q = p
    p[0] = 5.0
    assert isinstance(p, Parameter) and q.asnumpy().tolist() == [5.0, 2.0]


def test_pytree_flattens_to_array_and_unflattens_to_tensor():
    p = Parameter(Tensor([1.0, 2.0]), name="p")
    leaves, tree = jax.tree_util.tree_flatten(p)
    assert len(leaves) == 1 and isinstance(leaves[0], jax.Array)
    rebuilt = jax.tree_util.tree_unflatten(tree, leaves)
    assert type(rebuilt) is Tensor
    doubled = jax.jit(lambda t: t * 2)(p)
    assert type(doubled) is Tensor and doubled.asnumpy().tolist() == [2.0, 4.0]


def test_parameter_tuple():
    w = Parameter(Tensor(np.ones((2, 3)), ms.float32), name="fc.weight")
    b = Parameter(Tensor([1.0]), name="b")
    params = ParameterTuple([w, b])
    assert isinstance(params, tuple) and len(params) == 2 and params[0] is w
    clones = params.clone("m")
    assert isinstance(clones, ParameterTuple)
    assert [c.name for c in clones] == ["m.fc.weight", "m.b"]
    assert clones[0] is not w
    zeros = params.clone("moment1", init="zeros")
    assert zeros[0].asnumpy().sum() == 0 and w.asnumpy().sum() == 6
    with pytest.raises(TypeError, match="ParameterTuple input should be 'Parameter' collection"):
        ParameterTuple([1, 2])
    assert repr(ParameterTuple([b])) == "(Parameter (name=b, shape=(1,), dtype=Float32, requires_grad=True),)"


def test_recorded_settings_are_settable():
    # MindSpore 2.10's docstring examples set these; defaults, stored values and errors are its own.
    p = Parameter(Tensor(np.array([1, 2], np.float32)), name="param")
    assert (p.cache_enable, p.key, p.unique, p.cache_shape) == (False, -1, False, [])
    p.cache_enable = True
    p.key = 2
    p.unique = True
    p.cache_shape = (2, 3)
    assert (p.cache_enable, p.key, p.unique, p.cache_shape) == (True, 2, True, [2, 3])
    for attribute, value, message in [("key", "a", "must be int"), ("cache_enable", 1, "must be bool"),
                                      ("cache_shape", 5, "tuple or list")]:
        with pytest.raises(TypeError, match=message):
            setattr(p, attribute, value)


def test_automatic_names_start_where_mindspore_starts():
    # MindSpore 2.10, fresh process: the first two unnamed Parameters print as Parameter#2, Parameter#3.
    import os
    import subprocess
    import sys
    code = ("import sporax as ms\n"
            "print(ms.Parameter(ms.Tensor(1.0)).name, ms.Parameter(2.0).name)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["Parameter#2", "Parameter#3"]


def test_a_parameter_of_a_running_trace_cannot_be_renamed_but_prefixed():
    # MindSpore 2.10 GRAPH_MODE: `self.x.name = "x2"` in construct raises ValueError 'Do not support to set
    # attribute for a parameter'; a Cell built inside a compiled function still prefixes its Parameters
    weight = Parameter(Tensor(np.ones(2, np.float32)), name="weight")

    def rename(array, new_name):
        weight._array = array
        weight.name = new_name
        return array

    with pytest.raises(ValueError, match="Do not support to set attribute for a parameter"):
        jax.make_jaxpr(lambda array: rename(array, "other"))(np.ones(2, np.float32))
    jax.make_jaxpr(lambda array: rename(array, "dense.weight"))(np.ones(2, np.float32))
    assert weight.name == "dense.weight"


def test_data_is_a_plain_tensor_sharing_the_parameters_storage():
    from sporax.io.checkpoint import load_param_into_net
    from sporax.nn import Dense

    # Recorded on MindSpore 2.10: ``p.data`` prints and types as a Tensor, writes through it change the
    # Parameter, it has no ``set_data``; a dict of them is refused by load_param_into_net.
    p = Parameter(Tensor(np.arange(6).reshape(2, 3).astype(np.float32)), name="x")
    view = p.data
    assert not isinstance(view, Parameter)
    assert repr(view) == "Tensor(shape=[2, 3], dtype=Float32, value=\n[[ 0.00000000e+00,  1.00000000e+00,  " \
        "2.00000000e+00],\n [ 3.00000000e+00,  4.00000000e+00,  5.00000000e+00]])"
    view[0] = 9
    assert p.asnumpy().tolist() == [[9, 9, 9], [3, 4, 5]]
    p[1, 0] = -1
    assert view.asnumpy().tolist() == [[9, 9, 9], [-1, 4, 5]]
    with pytest.raises(AttributeError, match="set_data"):
        view.set_data(Tensor(np.ones((2, 3), np.float32)))
    p.data = Tensor(np.zeros((2, 3), np.float32))  # the setter still sets the Parameter's value
    assert p.asnumpy().tolist() == [[0, 0, 0], [0, 0, 0]]
    with pytest.raises(TypeError, match="should be a 'str' and 'Parameter' , but got <class 'str'> and "):
        load_param_into_net(Dense(3, 2), {"weight": Dense(3, 2).weight.data})
