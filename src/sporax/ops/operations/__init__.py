"""``mindspore.ops.operations``: the Primitive classes, thin adapters onto the functional ops."""
from sporax.ops.primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register

# --- math (owner: ops-math) ---

# --- array, nn (owner: ops-array-nn) ---
