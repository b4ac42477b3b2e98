"""ScenarioError: every problem of a rejected scenario, each naming its step (if any) and field."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from ..errors import SCENARIO_ERROR, Invalid, Reply


class Problem(TypedDict):
    step: int | None  # the step at fault, if one is
    field: str  # where: "steps[3].event"
    message: str
    at: NotRequired[Literal["key"]]  # the problem is about the mapping key ``field`` names (an editor points there)


class ProblemsReply(Reply):
    problems: list[Problem]


class ScenarioError(Invalid):
    kind = SCENARIO_ERROR

    def __init__(self, problems: list[Problem], message: str | None = None):
        self.problems = problems
        super().__init__(message or self.describe())

    def describe(self) -> str:
        lines = []
        for p in self.problems:
            where = f"step {p['step']}, " if p.get("step") is not None else ""
            lines.append(f"{where}field '{p['field']}': {p['message']}")
        return "\n".join(lines)

    def as_json(self) -> ProblemsReply:
        return {**super().as_json(), "problems": self.problems}
