"""Complex numbers, element-wise: ``angle``, ``conj``, ``imag``, ``real``, ``isreal`` and ``is_complex``.

Contract: as the MindSpore 2.10 functions of these names (values and dtypes checked against it); real Tensors go
through ``conj``/``real`` unchanged, and ``imag`` gives them zeros.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.conj(Tensor(np.array([1 + 2j], np.complex64))).asnumpy().tolist()
    [(1-2j)]
"""
import jax.numpy as jnp
import numpy as np

from sporax.ops.face_inputs import NUMBERS, primitive_accepting
from sporax.ops.op_table import ANY, COMPLEX, Sample, function_op, op
from sporax.ops.samples import shaped, unary, values


def _complex_samples(dtype):
    """Complex64 samples in every dtype's run (the op takes complex Tensors only)."""
    real, imaginary = values((3, 4), "float32"), values((3, 4), "float32", seed=1)
    return [Sample(((real + 1j * imaginary).astype(np.complex64),))]


@op(dtypes=COMPLEX, method="angle", grad_check=False, samples=_complex_samples,
    reference=np.angle)
def angle(input):
    """The element-wise argument (phase) of a complex tensor (Complex64 gives Float32).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> round(ops.angle(Tensor(np.array([-1 + 0j], np.complex64))).asnumpy().item(), 4)
        3.1416
    """
    return jnp.angle(input)


def _complex_part(name, function, primitive, summary, example_result, **options):
    """Declare the element-wise op ``name`` (``function``, one jnp call, of any dtype); its docstring's example
    applies it to ``1 + 2j`` and shows ``example_result``."""
    doc = (f"{summary}\n\n    Example:\n        >>> import numpy as np\n        >>> from sporax import Tensor, ops\n"
           f"        >>> ops.{name}(Tensor(np.array([1 + 2j], np.complex64))).asnumpy().tolist()\n"
           f"        {example_result}\n")
    return function_op(name, function, doc, module=__name__, dtypes=ANY, primitive=primitive, method=name, samples=unary(),
                       reference=getattr(np, name), **options)


# MindSpore 2.10's Conj takes every number dtype (Bool: its TypeError, on every face)
conj = _complex_part("conj", jnp.conj, "Conj", "The element-wise complex conjugate (real tensors come back unchanged).",
                     "[(1-2j)]", input_dtypes={"input": primitive_accepting("Conj", "input", ("BFloat16",) + NUMBERS,
                                                                            keep=True)})
imag = _complex_part("imag", jnp.imag, "Imag", "The imaginary part (zeros for a real tensor).", "[2.0]",
                     mint="imag", grad_check=False)
real = _complex_part("real", jnp.real, "Real", "The real part of a Tensor (a real Tensor is returned as it is).",
                     "[1.0]", mint="real")


# A Python value read from the input's dtype: an ``eager`` entry.
def _with_complex(dtype):
    return shaped(((2, 3), {}))(dtype) + (_complex_samples(dtype) if dtype == "float32" else [])


@op(dtypes=ANY, method="is_complex", eager=True, grad_check=False, samples=_with_complex, reference=np.iscomplexobj)
def is_complex(input):
    """Whether ``input`` has a complex dtype.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.is_complex(Tensor(np.ones(1, np.complex64)))
        True
    """
    return input.dtype.kind == "c"


# The reference sees float64 copies of the samples: the op's own answer for them is True in every float dtype.


def _isreal_samples(dtype):
    samples = unary(shapes=((3, 4),))(dtype)
    if dtype == "float32":
        samples.append(Sample((np.asarray([1 + 0j, 1j, -2 + 0.5j, 3 - 0j], np.complex64),)))
    return samples


@op(dtypes=ANY, method="isreal", grad_check=False, samples=_isreal_samples, reference=np.isreal)
def isreal(input):
    """Element-wise: whether each value is real (its imaginary part is 0; always True for real dtypes).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> print(ops.isreal(Tensor(np.array([1 + 0j, 1j], np.complex64))))
        [ True False]
    """
    return jnp.isreal(input)
