"""``ops.GradOperation``: MindSpore's older, class-based gradient API (used by TrainOneStepCell).

``GradOperation(get_all, get_by_list, sens_param)(fn, weights)`` returns a gradient function:
default -> the first input's gradient (a Tensor); get_all -> a tuple of every input's gradient;
get_by_list -> a tuple of the weights' gradients; both -> (inputs, weights); sens_param -> the
last input is the sensitivity of the output.
"""
from sporax.autodiff import grad_inputs
from sporax.autodiff.grad import GradFunction
from sporax.core import context
from sporax.state.discovery import is_cell
from sporax.state.reuse import function_identity
from sporax.state.scope import in_compiled_trace

_MAX_CACHED = 64


class GradOperation:
    """A higher-order function generating the gradient function of its input function.

    Args:
        get_all (bool): return the gradients of all inputs. Default: False.
        get_by_list (bool): return the gradients of the ``weights`` passed at call time. Default: False.
        sens_param (bool): the gradient function takes the output's sensitivity as its last input. Default: False.

    Inputs:
        - **fn** (Union[Cell, Function]) -- the function to differentiate.
        - **weights** (Union[Parameter, ParameterTuple, list[Parameter]]) -- with ``get_by_list=True``; a lone
          Parameter's gradient comes back as one Tensor, a list's or ParameterTuple's as a tuple.

    Outputs:
        Function, computing the gradients.
    """

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'GradOperation', the '{name}' must be bool, but got {type(value).__name__}.")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self._cache = {}

    def __deepcopy__(self, memo):
        # The cached gradient functions hold compiled programs of the original network.
        return GradOperation(self.get_all, self.get_by_list, self.sens_param)

    def __reduce__(self):
        return (GradOperation, (self.get_all, self.get_by_list, self.sens_param))

    def __call__(self, fn, weights=None):
        weight_list, weight_mode = None, None
        if self.get_by_list:
            if weights is None:
                weights = _default_weights(fn)
            # A lone Parameter gives its gradient as one Tensor, a list/ParameterTuple a tuple (MindSpore 2.10).
            weight_list, weight_mode = grad_inputs.normalize_weights(weights, "GradOperation")
        # A gradient function per (fn, weights): a construct calling self.grad(net, w) every step
        # must reuse the compiled program instead of re-discovering and re-tracing.
        key = (function_identity(fn), tuple(map(id, weight_list)) if weight_list else None)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if len(self._cache) >= _MAX_CACHED:
            self._cache.pop(next(iter(self._cache)))
        if self.get_all:
            result = GradFunction(fn, None, "tuple", weight_list, weight_mode, sens_param=self.sens_param,
                                  all_positions=True, api="GradOperation")
        elif self.get_by_list:
            result = GradFunction(fn, None, None, weight_list, weight_mode, sens_param=self.sens_param,
                                  api="GradOperation")
        else:
            result = GradFunction(fn, (0,), "single", None, None, sens_param=self.sens_param, api="GradOperation")
        self._cache[key] = result
        return result


def _default_weights(fn):
    """The weights of ``GradOperation(get_by_list=True)(fn)`` called without any (MindSpore 2.10): in PyNative a
    Cell's trainable Parameters; in a graph (GRAPH_MODE, inside ms.jit) none, an empty tuple of gradients."""
    if is_cell(fn) and context.get_mode() == context.PYNATIVE_MODE and not in_compiled_trace():
        return list(fn.trainable_params())
    return []
