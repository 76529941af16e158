"""``nn.SampledSoftmaxLoss``: softmax cross-entropy over the true classes and a sample of the others.

For each example the logits of its ``num_true`` labels and of ``num_sampled`` candidate classes
(shared by the batch) are ``logits @ weights[c] + biases[c] - log(expected_count[c])``; the loss is
the cross-entropy of their softmax against targets ``1/num_true`` on the labels and 0 on the
samples (Jean et al., 2015). The candidates come from ``sampled_values`` or, when it is None, from
``ops.UniformCandidateSampler`` (unique samples), as in MindSpore 2.10.
"""
import jax.numpy as jnp

from sporax.core.tensor import Tensor, tensor_array
from sporax.nn.loss.base import LossBase
from sporax.ops.operations.candidate_sampling_ops import UniformCandidateSampler


class SampledSoftmaxLoss(LossBase):
    """The sampled softmax training loss (an estimate of the full softmax loss over many classes).

    Args:
        num_sampled (int): classes sampled per batch.
        num_classes (int): the number of classes.
        num_true (int): labels per example. Default: ``1``.
        sampled_values (Union[list, tuple]): ``(sampled_candidates, true_expected_count,
            sampled_expected_count)`` from a candidate sampler; None samples uniformly. Default: ``None``.
        remove_accidental_hits (bool): passed to the uniform sampler. Default: ``True``.
        seed (int): the sampler's seed. Default: ``0``.
        reduction (str): ``'none'``, ``'mean'`` or ``'sum'``; checked, but as MindSpore 2.10 does, the loss is
            returned per example whatever its value. Default: ``'none'``.

    Inputs:
        - **weights** (Tensor) - (C, dim) class weights.
        - **biases** (Tensor) - (C,) class biases.
        - **labels** (Tensor) - (N, num_true) int32/int64 labels.
        - **logits** (Tensor) - (N, dim) activations.

    Outputs:
        Tensor of shape (N,).

    Example:
        >>> import numpy as np, sporax as ms
        >>> sampled = (ms.Tensor([0, 1, 2], ms.int32), ms.Tensor([0.1], ms.float32), ms.Tensor([0.1] * 3, ms.float32))
        >>> loss = ms.nn.SampledSoftmaxLoss(3, 7, sampled_values=sampled)
        >>> out = loss(ms.ops.ones((7, 2), ms.float32), ms.ops.zeros(7, ms.float32),
        ...            ms.Tensor([[3], [4]], ms.int32), ms.ops.ones((2, 2), ms.float32))
        >>> out.shape
        (2,)
    """

    def __init__(self, num_sampled, num_classes, num_true=1, sampled_values=None, remove_accidental_hits=True,
                 seed=0, reduction="none"):
        super().__init__(reduction)
        name = "SampledSoftmaxLoss"
        if num_true < 1:
            raise ValueError(f"For '{name}', the 'num_true' must be greater than or equal to 1, but got {num_true}.")
        if seed < 0:
            raise ValueError(f"For '{name}', the 'seed' must be greater than or equal to 0, but got {seed}.")
        if num_sampled > num_classes:
            raise ValueError(f"For '{name}', the 'num_sampled' must be smaller than or equal to 'num_classes', but "
                             f"got 'num_sampled': {num_sampled} and 'num_classes': {num_classes}.")
        if num_true > num_classes:
            raise ValueError(f"For '{name}', the 'num_true' must be smaller than or equal to 'num_classes', but got "
                             f"'num_true': {num_true} and 'num_classes': {num_classes}.")
        if sampled_values is not None:
            if not isinstance(sampled_values, (list, tuple)):
                raise TypeError(f"For '{name}', the type of 'sampled_values' must be a list or tuple, but got "
                                f"{type(sampled_values).__name__}.")
            if len(sampled_values) != 3:
                raise ValueError(f"For '{name}', the length of 'sampled_values' must be equal to 3, but got "
                                 f"{len(sampled_values)}.")
        self.num_sampled, self.num_classes, self.num_true = num_sampled, num_classes, num_true
        self.sampled_values = sampled_values
        self.remove_accidental_hits, self.seed = remove_accidental_hits, seed
        self.sampler = UniformCandidateSampler(num_true, num_sampled, True, num_classes, seed, remove_accidental_hits)

    def construct(self, weights, biases, labels, logits):
        name = "SampledSoftmaxLoss"
        weight_array = tensor_array(weights, "weights", name)
        bias_array = tensor_array(biases, "biases", name)
        label_array = tensor_array(labels, "labels", name)
        logit_array = tensor_array(logits, "logits", name)
        if label_array.dtype not in (jnp.int32, jnp.int64):
            raise TypeError(f"For '{name}', the dtype of 'labels' must be int32 or int64, but got {label_array.dtype}.")
        labels = Tensor._wrap(label_array.astype(jnp.int32).reshape(-1, self.num_true))
        sampled_values = self.sampled_values if self.sampled_values is not None else self.sampler(labels)
        sampled, true_expected, sampled_expected = (tensor_array(value, "sampled_values", name)
                                                    for value in sampled_values)
        true_ids = labels._value.reshape(-1)
        sampled = sampled.astype(jnp.int32)
        true_logits = jnp.sum(logit_array[:, None, :] * weight_array[true_ids].reshape(-1, self.num_true,
                                                                                         weight_array.shape[1]), -1)
        true_logits = true_logits + bias_array[true_ids].reshape(-1, self.num_true) - jnp.log(true_expected)
        sampled_logits = logit_array @ weight_array[sampled].T + bias_array[sampled] - jnp.log(sampled_expected)
        all_logits = jnp.concatenate([true_logits, sampled_logits], axis=1)
        targets = jnp.concatenate([jnp.full_like(true_logits, 1.0 / self.num_true), jnp.zeros_like(sampled_logits)], 1)
        stable = jnp.exp(all_logits - jnp.max(all_logits, axis=1, keepdims=True))
        probabilities = stable / jnp.sum(stable, axis=1, keepdims=True)
        # MindSpore 2.10 returns the per-example losses whatever `reduction` says (its docs promise a
        # scalar for 'mean'/'sum'); programs written against it see (N,), so sporax returns that too.
        return Tensor._wrap(-jnp.sum(targets * jnp.log(probabilities + 1.0e-20), axis=1))
