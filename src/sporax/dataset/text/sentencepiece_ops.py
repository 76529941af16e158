"""SentencePiece subword models: ``SentencePieceVocab`` (train, save) and
``SentencePieceTokenizer``, through the ``sentencepiece`` package (the optional extra
``sporax[text]``)."""
import io
import os

import numpy as np

from sporax.dataset.core.option_enums import int_enum
from sporax.dataset.text.tokenizers import input_string
from sporax.dataset.transforms.base import TensorOperation


SentencePieceModel = int_enum(
    "SentencePieceModel", __name__,
    "The subword algorithm a SentencePieceVocab is trained with.",
    "UNIGRAM", "BPE", "CHAR", "WORD")


SPieceTokenizerOutType = int_enum(
    "SPieceTokenizerOutType", __name__,
    "What SentencePieceTokenizer outputs: the pieces (STRING) or their ids (INT, int32).",
    "STRING", "INT")


SPieceTokenizerLoadType = int_enum(
    "SPieceTokenizerLoadType", __name__,
    "Where SentencePieceTokenizer's model comes from: a model FILE or a vocab MODEL object.",
    "FILE", "MODEL")


def _sentencepiece():
    try:
        import sentencepiece
    except ImportError:
        raise ImportError("SentencePiece transforms need the `sentencepiece` package: install "
                          "sporax's text extra (pip install 'sporax[text]') or "
                          "`pip install sentencepiece`.") from None
    return sentencepiece


def _check_training(vocab_size, character_coverage, model_type, params):
    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool) or vocab_size <= 0:
        raise ValueError(f"SentencePieceVocab: vocab_size must be a positive int, but got "
                         f"{vocab_size!r}.")
    if not isinstance(character_coverage, (int, float)) or not 0.98 <= character_coverage <= 1.0:
        raise ValueError("SentencePieceVocab: character_coverage must be a float in [0.98, 1.0], "
                         f"but got {character_coverage!r}.")
    if not isinstance(model_type, SentencePieceModel):
        raise TypeError(f"SentencePieceVocab: model_type must be a SentencePieceModel, but got "
                        f"{model_type!r}.")
    if not isinstance(params, dict):
        raise TypeError(f"SentencePieceVocab: params must be a dict, but got "
                        f"{type(params).__name__}.")


class SentencePieceVocab:
    """A trained SentencePiece model (its serialized ModelProto).

    Examples:
        >>> import sporax.dataset.text as text
        >>> vocab = text.SentencePieceVocab.from_file(["/path/to/corpus.txt"], 5000, 0.9995,
        ...                                           text.SentencePieceModel.UNIGRAM, {})  # doctest: +SKIP
        >>> text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.STRING)("Hello")  # doctest: +SKIP
    """

    def __init__(self):
        self.model_proto = None

    @classmethod
    def _train(cls, sentences, vocab_size, character_coverage, model_type, params):
        _check_training(vocab_size, character_coverage, model_type, params)
        writer = io.BytesIO()
        try:
            _sentencepiece().SentencePieceTrainer.train(
                sentence_iterator=sentences, model_writer=writer, vocab_size=vocab_size,
                character_coverage=float(character_coverage),
                model_type=model_type.name.lower(), minloglevel=2, **params)
        except RuntimeError as error:
            raise RuntimeError(f"SentencePieceVocab: training failed: {error}") from None
        vocab = cls()
        vocab.model_proto = writer.getvalue()
        return vocab

    @classmethod
    def from_file(cls, file_path, vocab_size, character_coverage, model_type, params):
        """Train a model on the lines of text files.

        Args:
            file_path (list[str]): the text files.
            vocab_size (int): the vocabulary size.
            character_coverage (float): characters the model covers (0.9995 for CJK, 1.0 else).
            model_type (SentencePieceModel): the subword algorithm.
            params (dict): further SentencePiece trainer options.

        Returns:
            SentencePieceVocab, the trained model.
        """
        if not isinstance(file_path, list) or not all(isinstance(p, str) for p in file_path):
            raise TypeError("SentencePieceVocab.from_file: file_path must be a list of paths.")
        for path in file_path:
            if not os.path.isfile(path):
                raise ValueError(f"SentencePieceVocab.from_file: {path} does not exist or is not "
                                 "a file.")

        def lines():
            for path in file_path:
                with open(path, encoding="utf-8") as handle:
                    for line in handle:
                        yield line.rstrip("\r\n")

        return cls._train(lines(), vocab_size, character_coverage, model_type, params)

    @classmethod
    def from_dataset(cls, dataset, col_names, vocab_size, character_coverage, model_type, params):
        """Train a model on the strings of a dataset's columns.

        Args:
            dataset (Dataset): the dataset.
            col_names (list[str]): the string columns to read.
            vocab_size, character_coverage, model_type, params: as ``from_file``.

        Returns:
            SentencePieceVocab, the trained model.
        """
        if not isinstance(col_names, list) or not col_names:
            raise TypeError("SentencePieceVocab.from_dataset: col_names must be a non-empty list.")

        def lines():
            for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
                for name in col_names:
                    for value in np.asarray(row[name]).reshape(-1):
                        yield value.decode("utf-8") if isinstance(value, bytes) else str(value)

        return cls._train(lines(), vocab_size, character_coverage, model_type, params)

    @classmethod
    def save_model(cls, vocab, path, filename):
        """Write ``vocab``'s model to ``path/filename`` (a .model file SentencePiece loads)."""
        if not isinstance(vocab, SentencePieceVocab) or vocab.model_proto is None:
            raise TypeError("SentencePieceVocab.save_model: vocab must be a trained "
                            "SentencePieceVocab.")
        if not os.path.isdir(path):
            raise ValueError(f"SentencePieceVocab.save_model: {path} is not a folder.")
        with open(os.path.join(path, filename), "wb") as handle:
            handle.write(vocab.model_proto)


class SentencePieceTokenizer(TensorOperation):
    """Tokenize a string with a SentencePiece model.

    Args:
        mode (Union[str, SentencePieceVocab]): a .model file or a trained SentencePieceVocab.
        out_type (SPieceTokenizerOutType): STRING gives the pieces, INT their ids (int32).

    Inputs:
        text: a string scalar.

    Outputs:
        1-D array of pieces or ids.

    Examples:
        >>> import sporax.dataset.text as text
        >>> tokenizer = text.SentencePieceTokenizer("/path/to/m.model",
        ...                                         text.SPieceTokenizerOutType.STRING)  # doctest: +SKIP
        >>> tokenizer("Hello world")  # doctest: +SKIP
    """

    def __init__(self, mode, out_type):
        if isinstance(mode, str):
            if not os.path.isfile(mode):
                raise ValueError(f"SentencePieceTokenizer: model file {mode} does not exist.")
            with open(mode, "rb") as handle:
                self._proto = handle.read()
        elif isinstance(mode, SentencePieceVocab):
            self._proto = mode.model_proto
        else:
            raise TypeError(f"SentencePieceTokenizer: mode must be a model path or a "
                            f"SentencePieceVocab, but got {type(mode).__name__}.")
        if not isinstance(out_type, SPieceTokenizerOutType):
            raise TypeError(f"SentencePieceTokenizer: out_type must be a SPieceTokenizerOutType, "
                            f"but got {out_type!r}.")
        self.mode, self.out_type = mode, out_type
        self._processor = None

    def _model(self):
        if self._processor is None:
            processor = _sentencepiece().SentencePieceProcessor()
            processor.LoadFromSerializedProto(self._proto)
            self._processor = processor
        return self._processor

    def __call__(self, text):
        text = input_string("SentencePieceTokenizer", text)
        if self.out_type == SPieceTokenizerOutType.INT:
            return np.array(self._model().EncodeAsIds(text), dtype=np.int32)
        return np.array(self._model().EncodeAsPieces(text), dtype=np.str_)

    def __getstate__(self):
        state = dict(vars(self))
        state["_processor"] = None  # rebuilt from the proto in worker processes
        return state
