"""Audio options recorded from MindSpore 2.10: ComputeDeltas' pad modes, Spectrogram's KAISER window."""
import numpy as np
import pytest

from sporax.dataset import audio

FRAMES = np.array([[1.0, 3.0, 2.0, 7.0, 4.0, 0.5, 6.0], [0.2, -1.0, 5.0, 2.0, 2.5, 3.0, -2.0]], np.float32)
# MindSpore 2.10: audio.ComputeDeltas(5, pad_mode)(FRAMES).ravel().
DELTAS = {
    "CONSTANT": [0.7, 1.5, 1.0, -0.3, 0.15, -1.2, -0.85, 0.9, 0.88, 0.76, 0.55, -1.3, -0.85, -0.8],
    "EDGE": [0.4, 1.3, 1.0, -0.3, 0.15, 0.0, 0.95, 0.84, 0.84, 0.76, 0.55, -1.3, -1.25, -1.4],
    "REFLECT": [0.0, 0.9, 1.0, -0.3, 0.15, -1.1, 0.0, 0.0, 1.08, 0.76, 0.55, -1.3, -0.25, 0.0],
    "SYMMETRIC": [0.0, 1.3, 1.0, -0.3, 0.15, 0.0, -0.15, 1.08, 0.84, 0.76, 0.55, -1.3, -1.25, -0.4],
}
# MindSpore 2.10: audio.Spectrogram(n_fft=16, window=WindowType.KAISER)(sin(arange(40) / 3)).ravel()[:12].
KAISER = [7.899177551269531, 3.95788836479187, 12.52103328704834, 18.527284622192383, 16.953046798706055,
          0.9595962166786194, 1.8094958066940308, 6.177606582641602, 9.929868698120117, 12.561826705932617,
          11.8721342086792, 0.7497391700744629]


@pytest.mark.parametrize("pad_mode", sorted(DELTAS))
def test_compute_deltas_pad_modes_match_mindspore(pad_mode):
    got = audio.ComputeDeltas(5, getattr(audio.BorderType, pad_mode))(FRAMES)
    np.testing.assert_allclose(got.ravel(), DELTAS[pad_mode], rtol=1e-5, atol=1e-6)


def test_compute_deltas_refuses_a_pad_mode_that_is_not_a_border_type():
    with pytest.raises(TypeError, match="ComputeDeltas: pad_mode must be a BorderType"):
        audio.ComputeDeltas(5, "wrap")


def test_spectrogram_kaiser_window_matches_mindspore():
    wave = np.sin(np.arange(40) / 3.0).astype(np.float32)
    got = audio.Spectrogram(n_fft=16, window=audio.WindowType.KAISER)(wave)
    np.testing.assert_allclose(got.ravel()[:12], KAISER, rtol=1e-5)


@pytest.mark.parametrize("make, message", [  # MindSpore 2.10's messages, the actual type included
    (lambda: audio.SlidingWindowCmn(cmn_window=1.5),
     "Argument cmn_window with value 1.5 is not of type [<class 'int'>], but got <class 'float'>."),
    (lambda: audio.SlidingWindowCmn(center=2),
     "Argument center with value 2 is not of type [<class 'bool'>], but got <class 'int'>."),
    (lambda: audio.TimeMasking(iid_masks=1),
     "Argument iid_masks with value 1 is not of type [<class 'bool'>], but got <class 'int'>."),
])
def test_argument_type_errors_name_the_type_given(make, message):
    with pytest.raises(TypeError) as caught:
        make()
    assert str(caught.value) == message
