"""Automatic differentiation with MindSpore's API (grad, value_and_grad, GradOperation, ...)."""
import sporax.ops  # noqa: F401 - ops re-exports autodiff names; load it first so the cycle resolves
from sporax.autodiff.bprop import call_with_bprop, has_bprop
from sporax.ops.functional.dependencies import Depend, StopGradient, depend, stop_gradient
from sporax.autodiff.grad import GradFunction, get_grad, grad, set_pynative_jit, value_and_grad
from sporax.autodiff.grad_operation import GradOperation
from sporax.autodiff.hooks import HookBackward, InsertGradientOf
from sporax.autodiff.no_grad import _no_grad
from sporax.autodiff.recompute import recompute
from sporax.autodiff.transforms import jacfwd, jacrev, jvp, vjp, vmap
