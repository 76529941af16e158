"""The leak guard and the recording pass that repairs missed discovery."""
import jax.numpy as jnp
import numpy as np
import pytest

from sporax.core.parameter import Parameter
from sporax.graph import jit
from sporax.state import Bound, StateLeakError, check_store, lift, remember
from tests.state.helpers import add, assign, tensor


class Box:
    """Hides a Parameter from discovery: a static argument is not walked."""

    def __init__(self, parameter):
        self.parameter = parameter

    def __hash__(self):
        return id(self)


def test_leak_error_names_parameter_and_function_and_restores():
    hidden = Parameter(tensor([1.0]), name="hidden_counter")
    remember([hidden])
    original = hidden._array

    def forward(x):
        assign(hidden, x)
        return x

    import jax

    from sporax.core.tensor import Tensor

    with pytest.raises(StateLeakError, match="hidden_counter.*forward"):
        jax.make_jaxpr(lambda a: lift(forward, [])([], Tensor._wrap(a))[0])(jnp.ones(1))
    assert hidden._array is original


def test_check_store_raises_inside_a_scope_only():
    loose = Parameter(tensor([1.0]), name="loose")
    check_store(loose, tensor([2.0]))  # eager: nothing to check
    import jax

    def traced(x):
        with Bound([], [], "my_function"):
            check_store(loose, x)

    with pytest.raises(StateLeakError, match="loose.*my_function"):
        jax.make_jaxpr(traced)(jnp.ones(1))


def test_jit_recording_pass_adds_a_written_parameter_it_did_not_discover():
    hidden = Parameter(tensor([0.0]), name="hidden")
    remember([hidden])
    box = Box(hidden)

    @jit
    def bump(x, holder):
        assign(holder.parameter, add(holder.parameter, x))
        return x

    bump(tensor([1.0]), box)
    bump(tensor([1.0]), box)
    np.testing.assert_allclose(hidden.asnumpy(), [2.0])


def test_jit_recording_pass_does_not_bake_a_read_parameter():
    hidden = Parameter(tensor([2.0]), name="hidden_read")
    remember([hidden])
    box = Box(hidden)

    @jit
    def scale(x, holder):
        return tensor_mul(x, holder.parameter)

    np.testing.assert_allclose(scale(tensor([3.0]), box).asnumpy(), [6.0])
    hidden.set_data(tensor([5.0]))
    np.testing.assert_allclose(scale(tensor([3.0]), box).asnumpy(), [15.0])


def tensor_mul(a, b):
    from tests.state.helpers import mul

    return mul(a, b)
