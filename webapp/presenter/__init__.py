"""The presenter: pure functions from the engine's plain data (frames, previews, summaries) to what is shown
and sent. It imports no engine and moves no cursor."""

from .delta import apply, diff
from .messages import delta_message, for_audience, for_followers, scenario_message, state_message
from .scene import present

__all__ = ["apply", "delta_message", "diff", "for_audience", "for_followers", "present", "scenario_message",
           "state_message"]
