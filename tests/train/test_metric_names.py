"""The metric registry's names: MindSpore 2.10's list, 'auc' included."""
import numpy as np

from sporax import train

# mindspore.train.names() on MindSpore 2.10.
MINDSPORE_NAMES = [
    "F1", "acc", "accuracy", "auc", "bleu_score", "confusion_matrix", "confusion_matrix_metric",
    "cosine_similarity", "dice", "hausdorff_distance", "loss", "mae", "mean_surface_distance", "mse",
    "occlusion_sensitivity", "perplexity", "precision", "recall", "roc", "root_mean_square_distance",
    "top_1_accuracy", "top_5_accuracy", "topk"]


def test_names_match_mindspore():
    assert train.names() == MINDSPORE_NAMES


def test_auc_is_the_area_function():
    x, y = np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0])
    assert train.get_metric_fn("auc", x, y) == 0.75
