"""What an animated export may be asked (animation.py draws it): its formats, widths and steps, its ``Request``,
and the checks made before any work, by the routes (web/animated.py), the CLI (command.py) and the export itself.
No pixels here: Pillow, resvg and the encoders load with animation.py, on the first animation, never at a server's
start."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from ..errors import Invalid, NotInstalled, TooLarge
from .preset import PRESETS, SLIDE, WIDTH
from .svg import THEMES, least_font, picture_width

KINDS = ("gif", "apng", "mp4")  # the animated formats, each a file's extension; mp4 with PyAV (video.py)
MIME = {"gif": "image/gif", "apng": "image/apng", "mp4": "video/mp4"}
WIDTHS = (320, 1920)  # the pictures' width in pixels, least and most
DEFAULT_WIDTH = WIDTH
MAX_STEPS = 30  # steps in one animation (a few frames each)
READABLE_PX = 9.0  # drawn smaller than this, the ordinary text is hard to read: the CLI warns
INSTALL = "pip install 'inflight-scope[video]'"  # PyAV, an MP4's encoder (video.py)


@dataclass(frozen=True)
class Request:
    """What to export: positions ``start``..``end`` (both drawn), ``kind`` (one of KINDS), the theme, the width
    and the layout (a key of preset.PRESETS)."""

    start: int
    end: int
    kind: str
    theme: str = "light"
    width: int = DEFAULT_WIDTH
    preset: str = SLIDE.name


def check_options(kind: str, theme: str, width: int, preset: str = SLIDE.name) -> None:
    """Invalid, with a sentence naming the option, for a format, theme, width or preset an animation cannot have."""
    if preset not in PRESETS:
        raise Invalid(f"preset must be one of {', '.join(PRESETS)}, not {preset[:40]!r}")
    if kind not in KINDS:
        raise Invalid(f"format must be one of {', '.join(KINDS)}, not {kind[:40]!r}")
    if kind == "mp4":
        require()
    if theme not in THEMES:
        raise Invalid(f"theme must be one of {', '.join(THEMES)}, not {theme[:40]!r}")
    if not WIDTHS[0] <= width <= WIDTHS[1]:
        raise Invalid(f"width must be {WIDTHS[0]} to {WIDTHS[1]} pixels, got {width}")


def check_range(start: int, end: int, total: int, most: int | None = MAX_STEPS) -> None:
    """Invalid unless 0 <= start <= end <= total; TooLarge past ``most`` steps (None: any number)."""
    if not 0 <= start <= total or not 0 <= end <= total:
        raise Invalid(f"the range must lie within positions 0..{total} of this scenario, got {start}..{end}")
    if start > end:
        raise Invalid(f"the range's start comes after its end: {start}..{end}")
    if most is not None and end - start > most:
        raise TooLarge(f"an animation holds at most {most} steps, not {end - start}: export a shorter range")


def text_height(width: int, panes: int, preset: str = SLIDE.name) -> float:
    """The height in pixels of the picture's ordinary text drawn ``width`` pixels wide, with ``panes`` versions
    laid out as ``preset`` (svg.py lays them out at a fixed width)."""
    layout = PRESETS[preset]
    return least_font(panes, layout) * width / picture_width(panes, layout)


def default_start(end: int) -> int:
    """Where a range that names only its end starts: as far back as an animation may go."""
    return max(0, end - MAX_STEPS)


def require() -> ModuleType:
    """PyAV, or NotInstalled naming the install."""
    try:
        import av
    except ImportError:
        raise NotInstalled(f"format mp4 needs PyAV, which is not installed here: {INSTALL}") from None
    return av
