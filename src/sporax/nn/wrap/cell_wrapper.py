"""Training wrappers: WithLossCell, WithEvalCell, TrainOneStepCell, and ParameterUpdate."""
from sporax import ops
from sporax.autodiff.grad import value_and_grad
from sporax.autodiff.grad_operation import GradOperation
from sporax.core import context
from sporax.core import dtype as mstype
from sporax.core.parameter import Parameter
from sporax.graph.cell_jit import call_compiled
from sporax.nn import cell_hooks
from sporax.nn.cell import Cell


def _runs_hooks_eagerly(network):
    """PyNative runs a network's Cell hooks with real values on every step: no compiled step then."""
    if context.get_context("mode") == context.GRAPH_MODE or not cell_hooks.any_hooks_created():
        return False  # GRAPH_MODE compiles forward hooks into the step, as MindSpore does
    for _, cell in network.cells_and_names():
        hooks = cell.__dict__.get("_hooks")
        if hooks is not None and (hooks.forward_pre or hooks.forward or hooks.backward_pre or hooks.backward):
            return True
    return False


class WithLossCell(Cell):
    """A network followed by its loss: ``loss_fn(backbone(data), label)``.

    Args:
        backbone (Cell): the network.
        loss_fn (Cell): the loss.

    Inputs:
        - **data** (Tensor), **label** (Tensor).

    Outputs:
        Tensor: the loss.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.WithLossCell(ms.nn.Dense(3, 1), ms.nn.MSELoss())
        >>> net(ms.ops.ones((2, 3)), ms.ops.zeros((2, 1))).shape
        ()
    """

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self):
        return self._backbone


class WithEvalCell(Cell):
    """A network with its loss for evaluation: returns ``(loss, outputs, label)``.

    Args:
        network (Cell): the network.
        loss_fn (Cell): the loss.
        add_cast_fp32 (bool): cast outputs, and a floating-point label, to float32 first (class-index labels
            stay integers). Default: False.
    """

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = ops.mixed_precision_cast(mstype.float32, label)
            outputs = outputs.astype("float32")
        return self._loss_fn(outputs, label), outputs, label


class _WeightedLoss(Cell):
    """``sum(loss * sens)`` for differentiation, with the loss itself as auxiliary output."""

    def __init__(self, network):
        super().__init__(auto_prefix=False)
        self.network = network

    def construct(self, *inputs_and_sens):
        *inputs, sens = inputs_and_sens
        loss = self.network(*inputs)
        return ops.sum(loss * sens), loss


def _default_grad_reducer():
    """The gradient reducer for the parallel mode in force (identity on one device)."""
    mode = context.get_auto_parallel_context("parallel_mode")
    if mode in ("data_parallel", "hybrid_parallel"):
        from sporax.nn.wrap.grad_reducer import DistributedGradReducer

        return DistributedGradReducer
    return None


class TrainOneStepCell(Cell):
    """One training step: forward, backward with sensitivity ``sens``, gradient reduction, update.

    Args:
        network (Cell): returns the loss (for example a ``WithLossCell``).
        optimizer (Optimizer): updates ``optimizer.parameters``.
        sens (float): the gradient of the loss output. Default: 1.0.
        return_grad (bool): also return the gradients. Default: False.

    Inputs:
        The network's inputs.

    Outputs:
        Tensor: the loss; with ``return_grad``, ``(loss, {parameter name: gradient})``.
    """

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        # Not a registered child: the step's Cell tree (and checkpoints) stay as MindSpore's.
        object.__setattr__(self, "_value_and_grad",
                           value_and_grad(_WeightedLoss(network), None, self.weights, has_aux=True))
        reducer = _default_grad_reducer()
        self.reducer_flag = reducer is not None
        self.grad_reducer = reducer(self.weights) if reducer is not None else (lambda grads: grads)

    def __call__(self, *args, **kwargs):
        # The built-in step (not a subclass's own construct) compiles forward, backward and
        # update into one program in PYNATIVE_MODE too, as Model does.
        if (type(self).construct is TrainOneStepCell.construct and self._hooks is None
                and self._cast_type is None and not _runs_hooks_eagerly(self.network)):
            result = call_compiled(self, args, kwargs)
            if self.return_grad:  # a compiled dict comes back with sorted keys: restore Parameter order
                loss, grads = result
                return loss, {weight.name: grads[weight.name] for weight in self.weights}
            return result
        return super().__call__(*args, **kwargs)

    def construct(self, *inputs):
        (_, loss), grads = self._value_and_grad(*inputs, self.sens)
        grads = self.grad_reducer(grads)
        loss = ops.depend(loss, self.optimizer(grads))
        if self.return_grad:  # MindSpore returns them by Parameter name
            return loss, {weight.name: grad for weight, grad in zip(self.weights, grads)}
        return loss


class ForwardValueAndGrad(Cell):
    """The network's output together with its gradients (``GradOperation`` options).

    Args:
        network (Cell): the network (usually one that returns the loss).
        weights (ParameterTuple): the Parameters to differentiate w.r.t. with ``get_by_list``. Default: None.
        get_all (bool): gradients w.r.t. all inputs. Default: False.
        get_by_list (bool): gradients w.r.t. ``weights``. Default: False.
        sens_param (bool): the last input is the output's sensitivity. Default: False.

    Inputs:
        - **(\\*inputs)** - the network's inputs (and the sensitivity with ``sens_param``).

    Outputs:
        ``(output, gradients)``, the gradients structured as ``GradOperation`` returns them.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(2, 1)
        >>> loss, grads = ms.nn.ForwardValueAndGrad(net, net.trainable_params(), get_by_list=True)(ms.ops.ones((1, 2)))
    """

    def __init__(self, network, weights=None, get_all=False, get_by_list=False, sens_param=False):
        super().__init__(auto_prefix=False)

        if not isinstance(network, Cell):
            raise TypeError(f"For 'ForwardValueAndGrad', the 'network' must be a Cell, but got "
                            f"{type(network).__name__}.")
        if get_by_list and weights is None:
            raise TypeError("For 'ForwardValueAndGrad', the 'weights' must be a ParameterTuple or a list of "
                            "Parameters when 'get_by_list' is True, but got None.")
        self.network = network
        self.weights = weights
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

    def construct(self, *inputs):
        forward_inputs = inputs[:-1] if self.sens_param else inputs
        loss = self.network(*forward_inputs)
        if self.get_by_list:
            return loss, self.grad(self.network, self.weights)(*inputs)
        return loss, self.grad(self.network)(*inputs)


class WithGradCell(Cell):
    """The gradients of a network's (loss) output with respect to its trainable Parameters.

    Args:
        network (Cell): the network.
        loss_fn (Cell): when given, the gradients are those of ``loss_fn(network(data), label)``. Default: None.
        sens (Tensor): the gradient of the output (its shape); None means ones. Default: None.

    Inputs:
        - **\\*inputs** - the network's inputs (``data, label`` when ``loss_fn`` is given).

    Outputs:
        tuple of Tensor, one gradient per trainable Parameter.

    Example:
        >>> import sporax as ms
        >>> grads = ms.nn.WithGradCell(ms.nn.Dense(3, 1), ms.nn.MSELoss())(ms.ops.ones((2, 3)), ms.ops.zeros((2, 1)))
        >>> [g.shape for g in grads]
        [(1, 3), (1,)]
    """

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.sens = sens
        self.weights = self.network.trainable_params()
        self.grad = ops.GradOperation(get_by_list=True, sens_param=sens is not None)

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network, self.weights)(*inputs)
        return self.grad(self.network, self.weights)(*inputs, self.sens)


class ParameterUpdate(Cell):
    """Assign its input to ``param`` and return the input (a manual Parameter update).

    Args:
        param (Parameter): the Parameter to update.

    Inputs:
        - **x** (Tensor) -- the new value (``param``'s shape).

    Outputs:
        Tensor, ``x``.
    """

    def __init__(self, param):
        super().__init__()
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', the 'param' must be a Parameter, but got {type(param).__name__}.")
        self._param = param

    def construct(self, x):
        ops.assign(self._param, x)
        return x
