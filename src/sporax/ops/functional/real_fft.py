"""Real-input Fourier transforms: ``rfft``, ``rfft2``, ``rfftn`` and the short-time transform
``stft`` (with its Primitive ``STFT``).

Integer, Float16 and BFloat16 inputs are transformed as Float32; Float32 gives Complex64. ``norm`` is 'backward'
(default, no scaling forward), 'forward' (1/n) or 'ortho' (1/sqrt(n)), as in NumPy.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.rfft(Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))).asnumpy().tolist()
    [(10+0j), (-2+2j), (-2+0j)]
"""
import jax.numpy as jnp
import ml_dtypes  # ships with jax; NumPy names bfloat16 through it
import numpy as np

from sporax.ops.functional.fft import many_d_transform, one_d_transform
from sporax.ops.op_table import SPECTRAL, Sample, op
from sporax.ops.primitive import Primitive, prim_attr_register

rfft = one_d_transform("rfft", lambda a, n, axis, norm: jnp.fft.rfft(a, n, axis, norm), np.fft.rfft,
                       real_only=True, module=__name__)
rfft2 = many_d_transform("rfft2", jnp.fft.rfftn, np.fft.rfftn, 2, real_only=True, module=__name__)
rfftn = many_d_transform("rfftn", jnp.fft.rfftn, np.fft.rfftn, None, real_only=True, module=__name__)


def _stft_samples(dtype):
    """Two (2, 12) signals: every default but a complex result; hop 2 with a Hann window of 4; a window of 3
    centred in 4 points without centring, normalized, as real/imaginary pairs."""
    generator = np.random.default_rng(0)
    target = np.dtype(getattr(ml_dtypes, dtype, dtype))
    signal = generator.uniform(-2, 2, (2, 12)).astype(target)
    return [Sample((signal,), {"n_fft": 4, "return_complex": True}),
            Sample((signal, np.hanning(4).astype(target)), {"n_fft": 4, "hop_length": 2, "return_complex": True}),
            Sample((signal, np.hanning(5)[1:4].astype(target)),
                   {"n_fft": 4, "win_length": 3, "center": False, "normalized": True})]


def _stft_reference(x, window=None, *, n_fft, hop_length=None, win_length=None, center=True, pad_mode="REFLECT",
                    normalized=False, onesided=None, return_complex=None):
    """Frames of the (padded) signal times the (centred) window, through NumPy's ``rfft``."""
    hop = n_fft // 4 if hop_length is None else hop_length
    width = n_fft if win_length is None else win_length
    taper = np.ones(width) if window is None else window
    left = (n_fft - width) // 2
    taper = np.concatenate([np.zeros(left), taper, np.zeros(n_fft - width - left)])
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=pad_mode.lower())
    frames = [x[..., start:start + n_fft] * taper for start in range(0, x.shape[-1] - n_fft + 1, hop)]
    spectrum = np.stack([np.fft.rfft(frame, axis=-1) for frame in frames], -1)
    if normalized:
        spectrum = spectrum / np.sqrt(n_fft)
    return spectrum if return_complex else np.stack([spectrum.real, spectrum.imag], -1)


@op(inputs=("x", "window"), dtypes=SPECTRAL, samples=_stft_samples, reference=_stft_reference, grad_check=False)
def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="REFLECT",
         normalized=False, onesided=None, return_complex=None):
    """The short-time Fourier transform of 1-D or (B, L) signals: (..., freq, frames), complex when
    ``return_complex`` (else a trailing real/imaginary axis of size 2).

    Frames start every ``hop_length`` (``n_fft // 4``) samples; ``window`` (ones of ``win_length``, centred in
    ``n_fft``) multiplies each; ``center`` pads ``n_fft // 2`` on both sides by ``pad_mode`` ('REFLECT' or
    'CONSTANT'); ``onesided`` (default for real inputs) keeps ``n_fft // 2 + 1`` frequencies.

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor, ops
        >>> ops.stft(Tensor(np.ones(8, np.float32)), 4, return_complex=True).shape
        (3, 9)
    """
    signal = x
    if signal.ndim not in (1, 2):
        raise ValueError(f"For 'stft', 'x' must be 1-D or 2-D, but got shape {tuple(signal.shape)}.")
    if isinstance(n_fft, bool) or not isinstance(n_fft, int) or not 0 < n_fft:
        raise ValueError(f"For 'stft', 'n_fft' must be a positive int, but got {n_fft!r}.")
    hop = n_fft // 4 if hop_length is None else hop_length
    width = n_fft if win_length is None else win_length
    if hop <= 0 or not 0 < width <= n_fft:
        raise ValueError(f"For 'stft', 'hop_length' must be positive and 0 < win_length <= n_fft, but got "
                         f"{hop_length!r} and {win_length!r}.")
    if window is None:
        taper = jnp.ones((width,), jnp.float32)
    else:
        taper = window
        if taper.shape != (width,):
            raise ValueError(f"For 'stft', 'window' must have shape ({width},), but got shape {taper.shape}.")
    left = (n_fft - width) // 2
    taper = jnp.pad(taper, (left, n_fft - width - left))
    if center:
        modes = {"REFLECT": "reflect", "CONSTANT": "constant"}
        if pad_mode not in modes:
            raise ValueError(f"For 'stft', 'pad_mode' must be 'REFLECT' or 'CONSTANT', but got {pad_mode!r}.")
        pad = [(0, 0)] * (signal.ndim - 1) + [(n_fft // 2, n_fft // 2)]
        signal = jnp.pad(signal, pad, mode=modes[pad_mode])
    length = signal.shape[-1]
    if length < n_fft:
        raise ValueError(f"For 'stft', the (padded) signal length {length} must be at least n_fft={n_fft}.")
    frames = 1 + (length - n_fft) // hop
    index = jnp.arange(frames)[:, None] * hop + jnp.arange(n_fft)[None, :]
    windows = signal[..., index] * taper
    complex_input = signal.dtype.kind == "c" or taper.dtype.kind == "c"
    one_sided = (not complex_input) if onesided is None else onesided
    spectrum = jnp.fft.rfft(windows, axis=-1) if one_sided and not complex_input else jnp.fft.fft(windows, axis=-1)
    if one_sided and complex_input:
        spectrum = spectrum[..., :n_fft // 2 + 1]
    if normalized:
        spectrum = spectrum / jnp.sqrt(jnp.asarray(n_fft, spectrum.real.dtype))
    spectrum = jnp.swapaxes(spectrum, -1, -2)
    if return_complex if return_complex is not None else complex_input:
        return spectrum
    return jnp.stack([spectrum.real, spectrum.imag], axis=-1)


class STFT(Primitive):
    """``ops.stft`` without centring: frames of ``x`` times ``window``, transformed.

    Args:
        n_fft, hop_length, win_length (int). normalized, onesided, return_complex (bool).

    Inputs:
        - **x** (Tensor) - 1-D or (B, L). **window** (Tensor) - (win_length,).
    """

    @prim_attr_register
    def __init__(self, n_fft, hop_length, win_length, normalized, onesided, return_complex):
        self.settings = (n_fft, hop_length, win_length, normalized, onesided, return_complex)

    def __call__(self, x, window):
        n_fft, hop, width, normalized, onesided, return_complex = self.settings
        return stft(x, n_fft, hop, width, window, False, "REFLECT", normalized, onesided, return_complex)
