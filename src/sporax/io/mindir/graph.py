"""``MindIRGraph``: what ``load`` returns for a MindIR ModelProto; ``nn.GraphCell`` runs it.

Example:
    >>> import sporax as ms
    >>> graph = ms.load("lenet5.mindir")  # doctest: +SKIP
    >>> ms.nn.GraphCell(graph)(ms.ops.ones((1, 1, 32, 32))).shape  # doctest: +SKIP
    (1, 10)
"""
from sporax.core.tensor import Tensor
from sporax.io.mindir.interpreter import Interpreter, MindIRError
from sporax.io.mindir.reader import read_model


class MindIRGraph:
    """A MindIR model: its weights (``parameters``, MindSpore's names) and its runnable graph.

    Args:
        file_name (str): the ``.mindir`` file.
        dec_key (bytes): the key of an encrypted file. Default: None.
        dec_mode (str): 'AES-GCM' (default), 'AES-CBC' or 'SM4-CBC'.
    """

    runnable = True

    def __init__(self, file_name, dec_key=None, dec_mode="AES-GCM"):
        self.file_name = file_name
        self.model, self.parameters = read_model(file_name, dec_key, dec_mode)
        try:
            self._interpreter = Interpreter(self.model, file_name)
        except (ValueError, MindIRError):
            raise
        except Exception as error:  # a damaged constant or graph: name the file, never a bare error
            raise ValueError(f"For 'load', {file_name}: the graph cannot be read ({type(error).__name__}: "
                             f"{error}). The file is damaged or from an unsupported MindSpore version.") from None

    @property
    def input_shapes(self):
        """The exported inputs' shapes (-1: a dynamic dimension)."""
        return [tuple(value.tensor[0].dims) if value.tensor else () for value in self.model.graph.input]

    def call(self, parameter_values, *inputs):
        """Run the graph on weight arrays (in ``parameters`` order) and input arrays or Tensors."""
        wrap = lambda value: value if isinstance(value, Tensor) else Tensor._wrap(value)
        return self._interpreter.run([wrap(value) for value in parameter_values],
                                     [wrap(value) if not isinstance(value, (int, float, bool)) else value
                                      for value in inputs])

    def __repr__(self):
        return (f"MindIRGraph({self.file_name!r}, producer {self.model.producer_name} "
                f"{self.model.model_version}, {len(self.parameters)} parameters)")
