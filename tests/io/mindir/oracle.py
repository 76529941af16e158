"""The MindIR oracle fixtures (recorded by ``tests/fixtures/mindir/record.py`` with MindSpore 2.10)
and the same networks in Python, built from that script under sporax through the compat hook."""
import os
import runpy

import numpy as np

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "mindir")
KEY = b"0123456789abcdef"  # the dec_key record.py encrypts dense_encrypted.mindir with
# fixture -> the record.py class that made it
NETWORKS = {"lenet5": "LeNet5", "lenet5_dynamic": "LeNet5", "resnet": "SmallResNet",
            "lstm_tagger": "LSTMTagger", "encoder": "Encoder", "while_if": "WhileIf",
            "dense_fp16": "HalfDense", "dense_encrypted": "HalfDense", "pool_net": "PoolNet", "gru": "GRUNet",
            "attention": "Attention", "conv1d_misc": "Conv1dMisc", "vggish": "VGGish", "lstm_state": "LSTMState",
            "transformer": "Transformer", "for_if": "ForIf", "half": "Half", "methods": "Methods",
            "encoder_dynamic": "Encoder", "lstm_tagger_dynamic": "LSTMTagger", "indexing": "Indexing",
            "gather_scatter": "GatherScatter", "int_ops": "IntOps", "constant_gather": "ConstantGather",
            # more export.py kinds, each with MindSpore's checkpoint <name>.ckpt too
            "textcnn_dynamic": "TextCNN", "masked_attention": "MaskedAttention", "group_norm": "GroupNormNet",
            "instance_norm": "InstanceNormNet", "depthwise": "DepthwiseSeparable", "masked_lstm": "MaskedLSTM",
            "activations": "Activations", "resize": "Resize", "pad_modes": "PadModes", "argmax_head": "ArgmaxHead",
            "int_bool": "IntBoolInputs", "nested_outputs": "NestedOutputs", "shared_weights": "SharedWeights",
            "cls_pooler_dynamic": "ClsPooler", "signal1d": "Signal1d", "scan_clamp_tile": "ScanClampTile"}
# the networks recorded with a checkpoint
WITH_CHECKPOINT = list(NETWORKS)[list(NETWORKS).index("textcnn_dynamic"):]


def path(name, suffix=".mindir"):
    return os.path.join(FIXTURES, name + suffix)


def inputs_outputs(name):
    """``([inputs], [MindSpore's outputs])`` as NumPy arrays."""
    arrays = np.load(path(name, "_io.npz"))
    ordered = sorted(arrays.files, key=lambda key: (key[0], int(key[1:])))  # y2 before y10
    inputs = [arrays[key] for key in ordered if key.startswith("x")]
    outputs = [arrays[key] for key in ordered if key.startswith("y")]
    return inputs, outputs


def network(name):
    """A fresh Python instance of the network ``name`` was exported from."""
    import sporax.compat

    sporax.compat.install()
    return runpy.run_path(path("record", ".py"))[NETWORKS[name]]()


def tolerance(name):
    half = "fp16" in name or "encrypted" in name or name == "half"
    return dict(rtol=1e-2, atol=1e-3) if half else dict(rtol=1e-4, atol=1e-5)
