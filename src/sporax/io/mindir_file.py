"""``load_mindir``/``save_mindir``: a MindIR file as its protobuf ``ModelProto`` message, both ways.

The message classes are sporax's own declaration of MindSpore's ``mind_ir.proto``
(``sporax.io.mindir.proto``), so a file MindSpore wrote parses field for field, and a message
edited here and saved loads in MindSpore. For running a MindIR use ``load`` + ``nn.GraphCell``.
"""
import os
import re

from google.protobuf.message import DecodeError

from sporax import log
from sporax.io.atomic import write_atomic
from sporax.io.mindir.proto import ModelProto

_FILE_NAME = re.compile(r"^[/\\]*[.\w\-\u4e00-\u9fa5:~]*([/\\]+[.\w\-\u4e00-\u9fa5]+)*[/\\]*$")


def _check_file_name(api, file_name):
    if not isinstance(file_name, str):
        raise TypeError(f"For '{api}', the argument 'file_name' must be str, but got {type(file_name)}.")
    if not file_name or _FILE_NAME.match(file_name) is None:
        raise ValueError(f"For '{api}', the argument 'file_name' {file_name!r} is not a valid file name: use letters, "
                         "digits, '.', '-', '_' and path separators.")


def load_mindir(file_name):
    """Parse a MindIR file into its ``ModelProto`` message.

    Args:
        file_name (str): the MindIR file.

    Returns:
        ModelProto, the file's message (``graph``, ``producer_name``, ``model_version`` ...).

    Raises:
        ValueError: the file does not exist, cannot be read, or is not a MindIR protobuf.

    Example:
        >>> import sporax as ms
        >>> model = ms.load_mindir("tests/fixtures/mindspore-2.10/mlp.mindir")  # doctest: +SKIP
        >>> model.producer_name  # doctest: +SKIP
        'MindSpore 2.10.0'
    """
    log.warning("The interface 'mindspore.load_mindir' is deprecated from version 2.5 and will be removed in a "
                "future version.")
    _check_file_name("load_mindir", file_name)
    path = os.path.realpath(file_name)
    model = ModelProto()
    try:
        with open(path, "rb") as handle:
            model.ParseFromString(handle.read())
    except (OSError, DecodeError, RuntimeError, UnicodeDecodeError) as error:
        raise ValueError(f"For 'load_mindir', failed to parse the file {path}: {error}. Check that it exists and is "
                         "a MindIR file (an encrypted MindIR needs mindspore.load with dec_key).") from None
    return model


def save_mindir(model, file_name):
    """Write a ``ModelProto`` message as a MindIR file (``.mindir`` appended if missing; read-only afterwards).

    Args:
        model (ModelProto): the message, e.g. from :func:`load_mindir`.
        file_name (str): the file to write; its directory is created.

    Raises:
        TypeError: ``model`` is not a ModelProto.
        ValueError: the file name is invalid or the file cannot be written.

    Example:
        >>> import sporax as ms
        >>> model = ms.load_mindir("tests/fixtures/mindspore-2.10/mlp.mindir")  # doctest: +SKIP
        >>> ms.save_mindir(model, "/tmp/mlp_copy")  # doctest: +SKIP
    """
    log.warning("The interface 'mindspore.save_mindir' is deprecated from version 2.5 and will be removed in a "
                "future version.")
    _check_file_name("save_mindir", file_name)
    if not isinstance(model, ModelProto):
        raise TypeError(f"For 'save_mindir', the argument 'model' must be ModelProto, but got {type(model)}.")
    path = os.path.realpath(file_name)
    if not path.endswith(".mindir"):
        path += ".mindir"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        write_atomic(path, model.SerializeToString(), mode=0o400)
    except OSError as error:
        raise ValueError(f"For 'save_mindir', failed to save the file {path}: {error}.") from None
