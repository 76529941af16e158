"""``ops.CTCLoss``: TensorFlow-style CTC over logits with sparse labels, returning the loss and its gradient.

The labels arrive as a sparse (batch, position) -> class list in row-major order; they are scattered
into a (N, L) blank-padded matrix (L = the number of label values, a static bound), optionally with
consecutive repeats collapsed first, and scored by the shared CTC forward recursion on
``log_softmax(x)`` with the last class as the blank. The gradient output is ``d loss / d x`` (softmax
minus the label posterior), taken by JAX's autodiff through that recursion (the ``ctc_loss_and_gradient`` op-table
entry of ``sporax.ops.functional.ctc``).
"""
from sporax.ops.functional.ctc import ctc_loss, ctc_loss_and_gradient
from sporax.ops.primitive import Primitive, prim_attr_register


class CTCLoss(Primitive):
    """Connectionist temporal classification loss of logits against sparse labels (blank = last class).

    Args:
        preprocess_collapse_repeated (bool): merge consecutive equal labels before scoring. Default: False.
        ctc_merge_repeated (bool): consecutive equal emissions merge into one label (standard CTC); when
            False each emission counts. Default: True.
        ignore_longer_outputs_than_inputs (bool): give zero loss and gradient to samples whose labels
            cannot fit their sequence length. Default: False.

    Inputs:
        - **x** (Tensor) - (max_time, batch, num_classes) float logits.
        - **labels_indices** (Tensor) - (M, 2) Int64 (batch, position) pairs, row-major.
        - **labels_values** (Tensor) - (M,) Int32 classes in [0, num_classes - 1).
        - **sequence_length** (Tensor) - (batch,) Int32 time steps of each sample.

    Outputs:
        ``(loss, gradient)``: the (batch,) negative log-likelihoods and their gradient w.r.t. ``x``.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> x = Tensor(np.zeros((2, 1, 3), np.float32))
        >>> loss, grad = ops.CTCLoss()(x, Tensor(np.array([[0, 0]], np.int64)), Tensor(np.array([1], np.int32)),
        ...                            Tensor(np.array([2], np.int32)))
        >>> round(float(loss[0]), 4)   # 3 of the 9 equally likely paths give [1]
        1.0986
    """

    @prim_attr_register
    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        for name, flag in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                           ("ctc_merge_repeated", ctc_merge_repeated),
                           ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs)):
            if not isinstance(flag, bool):
                raise TypeError(f"For 'CTCLoss', '{name}' must be a bool, but got {type(flag).__name__}.")
        self.preprocess_collapse_repeated = preprocess_collapse_repeated
        self.ctc_merge_repeated = ctc_merge_repeated
        self.ignore_longer_outputs_than_inputs = ignore_longer_outputs_than_inputs

    def __call__(self, x, labels_indices, labels_values, sequence_length):
        return ctc_loss_and_gradient(x, labels_indices, labels_values, sequence_length,
                                     self.preprocess_collapse_repeated, self.ctc_merge_repeated,
                                     self.ignore_longer_outputs_than_inputs)


class CTCLossV2(Primitive):
    """CTC loss of (T, N, C) log-probabilities against (N, S) padded targets: ``(neg_log_likelihood, log_alpha)``.

    The same computation as ``ops.ctc_loss``, as a Primitive.

    Args:
        blank (int): the blank class. Default: 0.
        reduction (str): 'none', 'mean' (each loss over its target length, then the batch mean) or 'sum'.
            Default: 'none'.
        zero_infinity (bool): accepted as MindSpore's CPU kernel does. Default: False.

    Inputs:
        - **log_probs** (Tensor) - (T, N, C) float log-probabilities.
        - **targets** (Tensor) - (N, S) int labels.
        - **input_lengths**, **target_lengths** (Tensor) - (N,) int lengths.

    Outputs:
        ``(neg_log_likelihood, log_alpha)``: the reduced loss and the (N, T, 2S+1) forward variables.
    """

    @prim_attr_register
    def __init__(self, blank=0, reduction="none", zero_infinity=False):
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def __call__(self, log_probs, targets, input_lengths, target_lengths):
        return ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                        self.zero_infinity)


class CTCLossV2Grad(Primitive):
    """Gradient of ``CTCLossV2`` with respect to ``log_probs`` (its VJP): ``(exp(log_probs) - posterior) * grad_out``
    over each sample's time steps, as MindSpore's (and PyTorch's) kernel.

    Args:
        blank, reduction, zero_infinity: those of the forward op (``grad_out`` is per sample: the forward's
            reduction is already folded into it).

    Inputs:
        - **grad_out** (Tensor) - (N,), the gradient of each sample's loss.
        - **log_probs** (Tensor) - (T, N, C). **targets** (Tensor) - (N, S).
        - **input_lengths**, **target_lengths** (Tensor) - (N,).
        - **neg_log_likelihood** (Tensor), **log_alpha** (Tensor) - the forward outputs (recomputed here).

    Outputs:
        Tensor of the shape and dtype of ``log_probs``.
    """

    @prim_attr_register
    def __init__(self, blank, reduction="none", zero_infinity=False):
        self.forward = CTCLossV2(blank, "none", zero_infinity)

    def __call__(self, grad_out, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha):
        from sporax.ops.operations.grad_ops_structured import vjp_of_inputs
        return vjp_of_inputs("CTCLossV2Grad",
                             lambda value: self.forward(value, targets, input_lengths, target_lengths)[0],
                             log_probs, grad_out, ("log_probs", "grad_out"))
