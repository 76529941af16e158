"""Language-model metrics: ``Perplexity`` and ``BleuScore``.

Example:
    >>> import numpy as np
    >>> from sporax.train.metrics.language import Perplexity
    >>> metric = Perplexity()
    >>> metric.update(np.array([[0.6, 0.4], [0.2, 0.8], [0.3, 0.7]]), np.array([1, 0, 1]))
    >>> round(metric.eval(), 4)
    2.6138
"""
import math
from collections import Counter

import numpy as np

from sporax.train.metrics.base import Metric, check_bool, rearrange_inputs, to_numpy

# Probabilities are clipped here before the log, so a zero probability gives a large, finite loss.
_MIN_PROBABILITY = 1e-10


class Perplexity(Metric):
    """``exp`` of the mean negative log-probability of the true labels.

    Args:
        ignore_label (int): a label whose samples are left out. Default: None.

    Inputs (``update``):
        - **preds** - (N, C) class probabilities, or a list of such arrays.
        - **labels** - (N,) or (N, 1) labels, or a list matching ``preds``.
    """

    def __init__(self, ignore_label=None):
        super().__init__()
        if ignore_label is not None and (isinstance(ignore_label, bool) or not isinstance(ignore_label, int)):
            raise TypeError(f"For 'Perplexity', 'ignore_label' must be an int or None, but got "
                            f"{type(ignore_label).__name__}.")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self):
        """Reset the accumulated loss and count."""
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Add one batch: ``update(preds, labels)``."""
        self._check_inputs(inputs, 2, "predicted value, label")
        preds, labels = inputs
        if isinstance(preds, list) and isinstance(labels, list):
            pairs = zip(preds, labels)
        else:
            pairs = [(preds, labels)]
        for pred, label in pairs:
            pred = to_numpy(pred, "Perplexity", "preds").astype(np.float64)
            label = to_numpy(label, "Perplexity", "labels").reshape(-1).astype(np.int64)
            if pred.ndim != 2 or label.size != pred.shape[0]:
                raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label (input[1]) "
                                   f"should have the same shape, but got predicted value shape {pred.shape}, "
                                   f"label shape {label.shape}.")
            probability = pred[np.arange(label.size), label]
            if self.ignore_label is not None:
                keep = label != self.ignore_label
                probability = probability[keep]
            self._sum_metric -= float(np.sum(np.log(np.maximum(probability, _MIN_PROBABILITY))))
            self._num_inst += probability.size

    def eval(self):
        """The perplexity (float)."""
        if self._num_inst == 0:
            raise self._no_samples()
        return math.exp(self._sum_metric / self._num_inst)


def _ngram_counts(words, n_gram):
    counts = Counter()
    for order in range(1, n_gram + 1):
        for start in range(len(words) - order + 1):
            counts[tuple(words[start:start + order])] += 1
    return counts


class BleuScore(Metric):
    """Corpus BLEU of tokenised translations against one or more references each.

    Args:
        n_gram (int): the largest n-gram order, in [1, 4]. Default: 4.
        smooth (bool): add one to every order's numerator and denominator. Default: False.

    Inputs (``update``):
        - **candidate_corpus** - a list of candidate sentences, each a list of tokens.
        - **reference_corpus** - for each candidate, a list of reference token lists.
    """

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        if isinstance(n_gram, bool) or not isinstance(n_gram, int) or not 1 <= n_gram <= 4:
            raise ValueError(f"For 'BleuScore', 'n_gram' must be an int in [1, 4], but got {n_gram!r}.")
        self.n_gram = n_gram
        self.smooth = check_bool("BleuScore", "smooth", smooth)
        self.clear()

    def clear(self):
        """Reset the n-gram counts and lengths."""
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._trans_length = 0
        self._ref_length = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """Add sentences: ``update(candidate_corpus, reference_corpus)``."""
        self._check_inputs(inputs, 2, "candidate_corpus, reference_corpus")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"For 'BleuScore.update', 'translate_corpus' (inputs[0]) and 'reference_corpus' "
                             f"(inputs[1]) should be equal in length, but got {len(candidates)}, {len(references)}")
        for candidate, refs in zip(candidates, references):
            self._trans_length += len(candidate)
            lengths = [len(ref) for ref in refs]
            self._ref_length += min(lengths, key=lambda length: abs(length - len(candidate)))
            candidate_counts = _ngram_counts(candidate, self.n_gram)
            max_ref_counts = Counter()
            for ref in refs:
                max_ref_counts |= _ngram_counts(ref, self.n_gram)
            for ngram, count in (candidate_counts & max_ref_counts).items():
                self._numerator[len(ngram) - 1] += count
            for ngram, count in candidate_counts.items():
                self._denominator[len(ngram) - 1] += count
        self._is_update = True

    def eval(self):
        """The BLEU score in [0, 1] (float)."""
        if not self._is_update:
            raise RuntimeError("For 'BleuScore.eval', call 'update' before 'eval'.")
        if min(self._numerator) == 0.0:
            return 0.0
        if self.smooth:
            precision = (self._numerator + 1.0) / (self._denominator + 1.0)
        else:
            precision = self._numerator / self._denominator
        geometric_mean = math.exp(float(np.mean(np.log(precision))))
        if self._trans_length > self._ref_length:
            brevity_penalty = 1.0
        else:
            brevity_penalty = math.exp(1 - self._ref_length / self._trans_length)
        return geometric_mean * brevity_penalty
