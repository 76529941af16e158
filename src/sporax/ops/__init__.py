"""``sporax.ops`` (``mindspore.ops``): every op once, as a function of Tensors; Primitive classes adapt onto them."""
from sporax.ops.primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register

# --- functional ops: math, reductions, comparison, logic (owner: ops-math) ---

# --- functional ops: array, creation, random, nn (owner: ops-array-nn) ---

# --- Primitive classes: math (owner: ops-math) ---

# --- Primitive classes: array, nn (owner: ops-array-nn) ---

# --- autodiff names re-exported by mindspore.ops (owner: state-autodiff) ---

# Tensor methods and operators are a table onto the functions above (owner: tensor).
