"""``GroupTopk``: MindSpore's Primitive of the op table's ``group_topk`` entry (Mixture-of-Experts routing; see
``sporax.ops.functional.expert_routing``).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> token = Tensor(np.array([[3.0, 1.0, 0.0, 2.0]], np.float32))
    >>> ops.GroupTopk()(token, Tensor(np.arange(1024, dtype=np.int32)), 2, 1).asnumpy().tolist()
    [[3.0, 1.0, 0.0, 0.0]]
"""
from sporax.ops.faces import primitive_class
from sporax.ops.functional import expert_routing  # noqa: F401 - declares the entry
from sporax.ops.op_table import TABLE

GroupTopk = primitive_class(TABLE["group_topk"], __name__)
