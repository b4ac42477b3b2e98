"""ScenarioError: every problem of a rejected scenario, each naming its step (if any) and field."""

from __future__ import annotations

from ..errors import SCENARIO_ERROR, Invalid


class ScenarioError(Invalid):
    kind = SCENARIO_ERROR

    def __init__(self, problems: list[dict], message: str | None = None):
        # problems: [{"step": int | None, "field": "steps[3].event", "message": "..."}]
        self.problems = problems
        super().__init__(message or self.describe())

    def describe(self) -> str:
        lines = []
        for p in self.problems:
            where = f"step {p['step']}, " if p.get("step") is not None else ""
            lines.append(f"{where}field '{p['field']}': {p['message']}")
        return "\n".join(lines)

    def as_json(self) -> dict:
        return {**super().as_json(), "problems": self.problems}
