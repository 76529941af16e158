"""In-place scatters on Parameters (add/update are in ``scatters``): ``scatter_mul``/``div``/``max``/``min``
(rows) and ``scatter_nd_sub``/``mul``/``div``/``max``/``min`` (index tuples).

Like MindSpore's ``ScatterAdd`` family they update the Parameter ``input_x`` through the state
layer (so they also work inside compiled functions that lift it) and return it.

Example:
    >>> import numpy as np
    >>> from sporax import Parameter, Tensor, ops
    >>> p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="p")
    >>> ops.scatter_mul(p, Tensor(np.array([1])), Tensor(np.array([[2.0, 3.0]], np.float32))).asnumpy().tolist()
    [[1.0, 1.0], [2.0, 3.0]]
"""
import numpy as np

from sporax.ops.functional.scatters import in_place_scatter

_ROWS = "the rows ``indices`` of Parameter ``input_x``"
_TUPLES = "Parameter ``input_x`` at the index tuples ``indices``"

scatter_mul = in_place_scatter("scatter_mul", "multiply", np.multiply, False,
                               f"Multiply {_ROWS} by ``updates``, in place; returns it.", __name__)
scatter_div = in_place_scatter("scatter_div", "divide", np.divide, False,
                               f"Divide {_ROWS} by ``updates``, in place; returns it.", __name__)
scatter_max = in_place_scatter("scatter_max", "max", np.maximum, False,
                               f"The element-wise maximum of {_ROWS} and ``updates``, in place.", __name__)
scatter_min = in_place_scatter("scatter_min", "min", np.minimum, False,
                               f"The element-wise minimum of {_ROWS} and ``updates``, in place.", __name__)
scatter_sub = in_place_scatter("scatter_sub", "subtract", np.subtract, False,
                               f"Subtract ``updates`` from {_ROWS}, in place; returns it.", __name__)
scatter_nd_sub = in_place_scatter("scatter_nd_sub", "subtract", np.subtract, True,
                                  f"Subtract ``updates`` from {_TUPLES}, in place.", __name__, use_locking=True)
scatter_nd_mul = in_place_scatter("scatter_nd_mul", "multiply", np.multiply, True,
                                  f"Multiply {_TUPLES} by ``updates``, in place.", __name__, use_locking=True)
scatter_nd_div = in_place_scatter("scatter_nd_div", "divide", np.divide, True,
                                  f"Divide {_TUPLES} by ``updates``, in place.", __name__, use_locking=True)
scatter_nd_max = in_place_scatter("scatter_nd_max", "max", np.maximum, True,
                                  f"The maximum of {_TUPLES} and ``updates``, in place.", __name__, use_locking=True)
scatter_nd_min = in_place_scatter("scatter_nd_min", "min", np.minimum, True,
                                  f"The minimum of {_TUPLES} and ``updates``, in place.", __name__, use_locking=True)
