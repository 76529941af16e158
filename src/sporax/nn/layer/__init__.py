"""Layers (``mindspore.nn.layer``): activations, basic, convolution, normalization, pooling, embedding."""
