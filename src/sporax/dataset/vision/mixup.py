"""``MixUp``: mix a batch of images and their one-hot labels with Beta-distributed weights."""
import numpy as np

from sporax.dataset.core import config
from sporax.dataset.transforms.base import PythonOperation, TensorOperation, random_generator


class MixUp(PythonOperation, TensorOperation):
    """Randomly mix a batch of images (N, H, W, C) and one-hot labels (N, classes): each sample
    becomes ``lam * sample + (1 - lam) * other`` with ``lam ~ Beta(alpha, alpha)`` per sample,
    the same ``lam`` for its label.

    Args:
        batch_size (int): images in a batch.
        alpha (float): the Beta distribution's two parameters (> 0).
        is_single (bool, optional): True mixes image i with image i + 1 of the same batch (the
            last with the first); False mixes each batch with the previous output (the first
            batch passes unchanged). Default True.

    Inputs:
        image (numpy.ndarray): (batch_size, H, W, C). label (numpy.ndarray): (batch_size, classes).

    Outputs:
        the mixed images and labels (float64).

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.vision as vision
        >>> images, labels = vision.MixUp(2, 0.2)(np.zeros((2, 4, 4, 3), np.uint8), np.eye(2))
        >>> images.shape, labels.shape
        ((2, 4, 4, 3), (2, 2))
    """

    random = True

    def __init__(self, batch_size, alpha, is_single=True):
        if isinstance(batch_size, bool) or not isinstance(batch_size, int):
            raise TypeError(f"MixUp: batch_size must be an int, but got {type(batch_size).__name__}.")
        if batch_size <= 0:
            raise ValueError(f"MixUp: batch_size must be positive, but got {batch_size}.")
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise TypeError(f"MixUp: alpha must be a float, but got {type(alpha).__name__}.")
        if alpha <= 0:
            raise ValueError(f"MixUp: alpha must be positive, but got {alpha}.")
        if not isinstance(is_single, bool):
            raise TypeError("MixUp: is_single must be a bool.")
        self.batch_size, self.alpha, self.is_single = batch_size, float(alpha), is_single
        self._previous = None

    def __call__(self, image, label):
        images, labels = np.asarray(image), np.asarray(label)
        if config.seed_was_set():
            # MindSpore's MixUp is Python: NumPy's global generator, which its set_seed seeds (as sporax's does).
            weights = np.random.beta(self.alpha, self.alpha, self.batch_size)
        else:
            weights = random_generator().beta(self.alpha, self.alpha, self.batch_size)
        if self.is_single:
            if images.shape[:1] < (self.batch_size,) or labels.shape[:1] < (self.batch_size,):
                raise RuntimeError(f"MixUp: image and label must hold at least batch_size={self.batch_size} "
                                   f"samples, but got shapes {images.shape} and {labels.shape}.")
            # The first batch_size samples, shifted by one; a longer input broadcasts against them
            # (MindSpore mixes a batch of 4 given batch_size=1 with its first sample).
            order = list(range(1, self.batch_size)) + [0]
            other_images, other_labels = images[order], labels[order]
        else:
            if self._previous is None:
                weights = np.ones(self.batch_size)
                self._previous = (images, labels)
            other_images, other_labels = self._previous
        # One weight per leading entry, broadcast as MindSpore does: (batch_size, 1, 1, 1) against
        # the images, (batch_size, 1) against the labels.
        image_weights, label_weights = weights.reshape(-1, 1, 1, 1), weights.reshape(-1, 1)
        try:
            mixed_images = image_weights * images + (1 - image_weights) * other_images
            mixed_labels = label_weights * labels + (1 - label_weights) * other_labels
        except ValueError:
            raise ValueError(f"MixUp: with batch_size={self.batch_size}, image and label must broadcast against "
                             f"(batch_size, 1, 1, 1) and (batch_size, 1), but got shapes {images.shape} and "
                             f"{labels.shape}; batch the data with batch_size={self.batch_size} first.") from None
        if not self.is_single:
            self._previous = (mixed_images, mixed_labels)
        return mixed_images, mixed_labels
