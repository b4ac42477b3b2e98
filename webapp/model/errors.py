"""The one error the model raises: a step that cannot be applied to the current state."""

from ..errors import Invalid


class StepError(Invalid):
    """``field`` names the step parameter at fault (``op`` when it is the operation itself)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message
