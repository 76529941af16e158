"""Automatic differentiation with MindSpore's API (grad, value_and_grad, GradOperation, ...)."""
from sporax.autodiff.grad import GradFunction, get_grad, grad, set_pynative_jit, value_and_grad
