"""Video decoding: ``read_video``, ``read_video_timestamps``, ``DecodeVideo`` and
``VideoDecoder``, through PyAV (FFmpeg's libraries; the optional extra ``sporax[video]``).

Frames come out as (T, H, W, 3) uint8 RGB, audio as (channels, samples) float32 ((1, 0) when
the file has none), as MindSpore gives them.
"""
import fractions
import io
import os

import numpy as np

from sporax.dataset.transforms.base import TensorOperation


def _av():
    try:
        import av
    except ImportError:
        raise ImportError("Video decoding needs PyAV (FFmpeg's libraries): install sporax's video "
                          "extra (pip install 'sporax[video]') or `pip install av`.") from None
    return av


def _check_file(where, filename):
    if not isinstance(filename, str):
        raise TypeError(f"{where}: filename must be a str, but got {type(filename).__name__}.")
    if not os.path.isfile(filename):
        raise RuntimeError(f"{where}: {filename} does not exist or is not a regular file.")


def _check_unit(where, pts_unit):
    if not isinstance(pts_unit, str):
        raise TypeError(f"{where}: pts_unit must be a str, but got {type(pts_unit).__name__}.")
    if pts_unit not in ("pts", "sec"):
        raise RuntimeError(f"{where}: pts_unit must be 'pts' or 'sec', but got {pts_unit!r}.")


def _open(where, source):
    try:
        return _av().open(source)
    except Exception as error:  # FFmpeg's errors carry no common base class across versions
        name = source if isinstance(source, str) else "the input bytes"
        raise RuntimeError(f"{where}: cannot open {name} as a video: {error}") from None


def _decode(where, container, start_pts=0, end_pts=None, pts_unit="pts"):
    """(frames, audio, metadata) of an opened container, video frames within [start, end]."""
    frames, audio, metadata = [], [], {}
    with container:
        video_stream = container.streams.video[0] if container.streams.video else None
        audio_stream = container.streams.audio[0] if container.streams.audio else None
        if video_stream is None:
            raise RuntimeError(f"{where}: the input has no video stream.")
        metadata["video_fps"] = float(video_stream.average_rate or 0.0)
        if audio_stream is not None:
            metadata["audio_fps"] = int(audio_stream.rate or 0)
        streams = [s for s in (video_stream, audio_stream) if s is not None]
        for frame in container.decode(*streams):
            if frame.pts is None:
                continue
            moment = frame.pts if pts_unit == "pts" else float(frame.pts * frame.time_base)
            if moment < start_pts or (end_pts is not None and moment > end_pts):
                continue
            if isinstance(frame, _av().VideoFrame):
                frames.append(frame.to_ndarray(format="rgb24"))
            else:
                audio.append(np.asarray(frame.to_ndarray(), np.float32).reshape(
                    len(frame.layout.channels), -1))
    video = np.stack(frames) if frames else np.zeros(
        (0, video_stream.height, video_stream.width, 3), np.uint8)
    sound = np.concatenate(audio, axis=1) if audio else np.zeros((1, 0), np.float32)
    return video, sound, metadata


def read_video(filename, start_pts=0, end_pts=None, pts_unit="pts"):
    """Read the video frames, audio and metadata of a video file.

    Args:
        filename (str): the video file.
        start_pts (Union[float, Fraction, int], optional): first timestamp read. Default 0.
        end_pts (Union[float, Fraction, int], optional): last timestamp read. Default None: the end.
        pts_unit (str, optional): unit of the timestamps, "pts" or "sec". Default "pts".

    Returns:
        numpy.ndarray (T, H, W, 3) uint8 frames; numpy.ndarray (C, L) float32 audio; dict with
        video_fps (and audio_fps when there is audio).

    Examples:
        >>> import sporax.dataset.vision as vision
        >>> video, audio, metadata = vision.read_video("/path/to/video.mp4")  # doctest: +SKIP
    """
    where = "read_video"
    _check_file(where, filename)
    for name, value in (("start_pts", start_pts), ("end_pts", end_pts)):
        if value is not None and (isinstance(value, bool) or
                                  not isinstance(value, (int, float, fractions.Fraction))):
            raise TypeError(f"{where}: {name} must be a float, Fraction or int, but got "
                            f"{type(value).__name__}.")
    _check_unit(where, pts_unit)
    return _decode(where, _open(where, filename), start_pts, end_pts, pts_unit)


def read_video_timestamps(filename, pts_unit="pts"):
    """The presentation timestamps of a video file's frames and its frame rate.

    Args:
        filename (str): the video file.
        pts_unit (str, optional): "pts" (int timestamps) or "sec" (float seconds). Default "pts".

    Returns:
        list of the timestamps; float, frames per second.

    Examples:
        >>> import sporax.dataset.vision as vision
        >>> timestamps, fps = vision.read_video_timestamps("/path/to/video.mp4")  # doctest: +SKIP
    """
    where = "read_video_timestamps"
    _check_file(where, filename)
    _check_unit(where, pts_unit)
    container = _open(where, filename)
    with container:
        if not container.streams.video:
            raise RuntimeError(f"{where}: {filename} has no video stream.")
        stream = container.streams.video[0]
        stamps = sorted(packet.pts for packet in container.demux(stream)
                        if packet.pts is not None and packet.size)
        fps = float(stream.average_rate or 0.0)
        base = stream.time_base
    if pts_unit == "sec":
        # the time base in single precision, as MindSpore multiplies by it
        stamps = [stamp * float(np.float32(base)) for stamp in stamps]
    return stamps, fps


class DecodeVideo(TensorOperation):
    """Decode the bytes of a video file (AVI, H264, H265, MOV, MP4, WMV...) into its frames and
    audio.

    Inputs:
        data (numpy.ndarray): 1-D uint8, the file's bytes.

    Outputs:
        numpy.ndarray (T, H, W, 3) uint8 frames, numpy.ndarray (C, L) float32 audio.

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.vision as vision
        >>> video, audio = vision.DecodeVideo()(np.fromfile("/path/to/video.mp4", np.uint8))  # doctest: +SKIP
    """

    def __call__(self, data):
        array = np.asarray(data)
        if array.ndim != 1:
            raise RuntimeError(f"DecodeVideo: the input should be a 1-D array of the file's bytes, "
                               f"but got shape {array.shape}.")
        if array.dtype != np.uint8:
            raise RuntimeError(f"DecodeVideo: the input should be uint8, but got {array.dtype}.")
        if array.size == 0:
            raise RuntimeError("DecodeVideo: the input is empty.")
        video, audio, _ = _decode("DecodeVideo", _open("DecodeVideo", io.BytesIO(array.tobytes())))
        return video, audio


class VideoDecoder:
    """A decoder of one video stream: its metadata and the frames at given indices.

    Args:
        source (str): the video file.

    Examples:
        >>> import sporax.dataset.vision as vision
        >>> decoder = vision.VideoDecoder("/path/to/video.mp4")  # doctest: +SKIP
        >>> decoder.get_frames_at([0, 2]).shape  # doctest: +SKIP
    """

    def __init__(self, source):
        if not isinstance(source, str):
            raise TypeError(f"VideoDecoder: source must be a str, but got "
                            f"{type(source).__name__}.")
        if not os.path.isfile(source):
            raise ValueError(f"VideoDecoder: {source} does not exist or permission is denied.")
        self.source = source
        self._frames = None

    def _all_frames(self):
        if self._frames is None:
            self._frames = read_video(self.source)[0]
        return self._frames

    @property
    def metadata(self):
        """{width, height, duration_seconds, num_frames, average_fps} of the video stream."""
        container = _open("VideoDecoder", self.source)
        with container:
            stream = container.streams.video[0]
            duration = float(stream.duration * stream.time_base) if stream.duration else \
                float(container.duration or 0) / 1e6
            return {"width": stream.width, "height": stream.height,
                    "duration_seconds": duration,
                    "num_frames": stream.frames or len(self._all_frames()),
                    "average_fps": float(stream.average_rate or 0.0)}

    def get_frames_at(self, indices):
        """The frames at ``indices`` as (T, H, W, 3) uint8 RGB.

        Args:
            indices (list[int]): frame indices in [0, number of frames).
        """
        if not isinstance(indices, list):
            raise TypeError("VideoDecoder.get_frames_at: indices must be a list of int.")
        frames = self._all_frames()
        for index in indices:
            if isinstance(index, bool) or not isinstance(index, int):
                raise TypeError("VideoDecoder.get_frames_at: indices must be a list of int.")
            if not 0 <= index < len(frames):
                raise ValueError(f"VideoDecoder.get_frames_at: index {index} is not in the range "
                                 f"[0, {len(frames)}).")
        return frames[indices] if indices else frames[:0]
