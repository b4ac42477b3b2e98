"""Pixels to a video: an animation's frames as an MP4 (H.264 in yuv420p, which PowerPoint, Keynote, Google Slides
and every browser play), the animated exports' last stage for ``mp4``.

The encoder is PyAV (``av``), an optional install: its wheels carry their own FFmpeg libraries (with libx264), no
system library. Without it a video is refused before any work (``require``: NotInstalled, naming the install).
Each picture is one frame shown for its duration (a variable frame rate, in ms), so a held picture costs one frame;
the last frame's packet carries its own duration, so the video lasts as long as the GIF does."""

from __future__ import annotations

import io
from fractions import Fraction

from PIL import Image

from .request import require

MS = Fraction(1, 1000)


def encoded(frames: list[Image.Image], durations: list[int]) -> bytes:
    """The frames (one size, RGB; an even width, the height made even) as an MP4, each shown its duration in ms."""
    av = require()
    width, height = frames[0].size
    out = io.BytesIO()
    with av.open(out, mode="w", format="mp4") as container:
        stream = container.add_stream("libx264", rate=1000, options={"preset": "veryfast", "crf": "18"})
        stream.width, stream.height, stream.pix_fmt = width + width % 2, height + height % 2, "yuv420p"
        stream.codec_context.time_base = MS
        packets, shown = [], 0
        for frame, ms in zip(frames, durations, strict=True):
            picture = av.VideoFrame.from_image(_even(frame))
            picture.pts, picture.time_base = shown, MS
            shown += ms
            packets += stream.encode(picture)
        packets += stream.encode()
        max(packets, key=lambda p: p.pts).duration = durations[-1]
        for packet in packets:
            container.mux(packet)
    return out.getvalue()


def _even(frame: Image.Image) -> Image.Image:
    """``frame`` on a canvas of even width and height (yuv420p halves both), its added edge its corner's colour."""
    width, height = frame.size
    if width % 2 == 0 and height % 2 == 0:
        return frame
    canvas = Image.new("RGB", (width + width % 2, height + height % 2), frame.getpixel((0, height - 1)))
    canvas.paste(frame, (0, 0))
    return canvas
