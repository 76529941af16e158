"""core/jax_private: each named function answers what sporax asks of JAX's private modules, so a
JAX upgrade that moves them fails here first."""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import jax_private


def test_trace_kinds_are_told_apart():
    seen = {}

    def probe(x):
        seen["staged"], seen["transforming"] = jax_private.is_staged_tracer(x), jax_private.is_transforming()
        seen["forward"] = jax_private.is_forward_mode_tracer(x)
        seen["reverse"] = jax_private.is_reverse_mode_tracer(x)
        return x * 2.0

    probe(1.0)
    assert seen == {"staged": False, "transforming": False, "forward": False, "reverse": False}
    jax.jit(probe)(1.0)
    assert seen["staged"] and seen["transforming"] and not seen["forward"]
    jax.jvp(probe, (1.0,), (1.0,))
    assert seen["forward"] and not seen["reverse"] and not seen["staged"] and seen["transforming"]
    jax.grad(probe)(1.0)
    assert seen["reverse"] and not seen["forward"] and seen["transforming"]
    jax.vmap(probe)(jax.numpy.ones(2))
    assert seen["transforming"] and not seen["staged"]
    probe(1.0)  # back at the top level after each transformation
    assert not seen["transforming"]


def test_an_eager_gradient_tracer_still_has_its_value_and_a_staged_one_has_none():
    values = []

    def record(x):
        values.append(jax_private.concrete_value(x))
        return x * x

    jax.grad(record)(3.0)
    jax.jit(jax.grad(record))(3.0)
    assert float(values[0]) == 3.0
    assert values[1] is None


def test_jaxpr_rewrites_keep_what_the_outputs_need():
    closed = jax.make_jaxpr(lambda x, y: (jnp.sin(x) + np.float32(2.0), y * 3.0))(1.0, 2.0)
    jaxpr = jax_private.constants_as_inputs(closed.jaxpr)
    assert len(jaxpr.invars) == len(closed.consts) + 2
    first = jaxpr.replace(outvars=jaxpr.outvars[:1], debug_info=jaxpr.debug_info._replace(result_paths=None))
    pruned, used = jax_private.dead_code_eliminated(first, [True])
    assert used[-1] is False  # y is not needed for the first output
    assert [eqn.primitive.name for eqn in pruned.eqns if eqn.primitive.name == "mul"] == []
    literal = jax.make_jaxpr(lambda x: x + 1.0)(1.0).jaxpr.eqns[0].invars[1]
    assert isinstance(literal, jax_private.Literal)


def test_backend_and_distributed_state():
    jnp.zeros(1).block_until_ready()
    assert jax_private.backends_started()
    assert jax.default_backend() in jax_private.started_backends()
    assert jax_private.distributed_client() is None  # no jax.distributed.initialize in this process


def test_compile_if_cached_compiles_nothing_new_and_compile_uncached_takes_options():
    import jax
    import numpy as np

    lowered = jax.jit(lambda x: x * 3.0 + 1.0).lower(np.ones(3, np.float32))
    assert jax_private.compile_if_cached(lowered) is None
    assert jax_private.compile_if_cached(lowered) is None  # the first call compiled nothing either
    quick = jax_private.compile_uncached(lowered, {"xla_llvm_disable_expensive_passes": True})
    assert quick(np.ones(3, np.float32)).tolist() == [4.0, 4.0, 4.0]
    assert jax_private.compile_if_cached(lowered) is None  # the quick variant is not the program
    lowered.compile()
    cached = jax_private.compile_if_cached(lowered)
    assert cached is not None and cached(np.ones(3, np.float32)).tolist() == [4.0, 4.0, 4.0]


def test_an_eager_vmap_tracer_has_its_batch_values_and_a_staged_one_has_none():
    values = []

    def record(x):
        values.append(jax_private.batched_values(x))
        return x

    jax.vmap(jax.vmap(record))(jnp.arange(6).reshape(2, 3))
    jax.jit(jax.vmap(record))(jnp.arange(3))
    np.testing.assert_array_equal(values[0], np.arange(6).reshape(2, 3))
    assert values[1] is None


def test_constant_lineage_lists_the_operations_of_a_value_made_from_constants_only():
    seen = {}

    def probe(x):
        constant = jnp.asarray(np.array([1.0, 2.0], np.float32))
        seen["sum"] = jax_private.constant_lineage(constant + constant)
        seen["ones"] = jax_private.constant_lineage(jnp.ones(2) * 2)
        seen["input"] = jax_private.constant_lineage(constant + x)
        seen["plain"] = jax_private.constant_lineage(constant)
        return x

    jax.jit(probe)(jnp.ones(2))
    assert seen["sum"] == [("add", (False, False), ((2,), (2,)))]
    assert seen["ones"] == [("mul", (False, True), ((2,), ())), ("broadcast_in_dim", (True,), ((),))]
    assert seen["input"] is None
    assert seen["plain"] == []  # a constant itself
    assert jax_private.constant_lineage(np.ones(2)) is None  # no tracer
    assert jax_private.constant_lineage(jnp.ones(2)) is None
