"""A session's bounds and refusals are webapp/engine/rules.py's: static/js/rules.js is made from it, and the
offline transport (static/js/local.js) names no bound or refusal sentence itself."""

import re
from pathlib import Path

import pytest

from tools.clientgen import rules_module
from webapp.engine.rules import MAX_SPEED, MIN_SPEED, SENTENCES, said
from webapp.engine.session import Session, parse_speed
from webapp.errors import Invalid, NotLoaded

JS = Path(__file__).resolve().parent.parent / "static" / "js"


def test_the_page_module_is_made_from_the_rules_module():
    assert (JS / "rules.js").read_text() == rules_module(), "run: python -m tools.clientgen"


def test_the_session_refuses_with_the_rules_sentences():
    with pytest.raises(Invalid) as speed:
        parse_speed(MAX_SPEED * 2)
    assert str(speed.value) == said("speed", got=f"{MAX_SPEED * 2}")
    assert parse_speed(MIN_SPEED) == MIN_SPEED
    with pytest.raises(NotLoaded) as idle:
        Session().step()
    assert str(idle.value) == SENTENCES["notLoaded"]


def test_local_js_writes_no_bound_or_sentence_itself():
    source = (JS / "local.js").read_text()
    words = [max(re.split(r"\{\w+\}", sentence), key=len) for sentence in SENTENCES.values()]  # each one's longest
    assert all(len(w) > 8 for w in words) and not [w for w in words if w in source]
    assert not re.search(r"\b(0\.25|20)\b", source)
