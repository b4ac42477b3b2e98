"""Waiting for a page to show a text, ended by the page's own change: the wait is a promise in the page, settled by a
MutationObserver the moment the text matches. Playwright's ``expect`` polls instead, at 20, 50, 100, 100 ms and
then every 500 ms, so a step drawn in 300 ms was seen after 770 ms, and a worker's core sat idle meanwhile."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Error, Page

from tests.e2e.conftest import TIMEOUT_MS

# (selector, pattern's source, its flags, ms) -> the element's text once it matches; rejects after ms with what it
# showed. Text as Playwright's to_have_text reads it: textContent, white space normalised.
SHOWN_JS = """([selector, source, flags, ms]) => new Promise((resolve, reject) => {
  const pattern = new RegExp(source, flags);
  const text = () => {
    const el = document.querySelector(selector);
    return el === null ? null : el.textContent.replace(/\\u200b/g, '').trim().replace(/\\s+/g, ' ');
  };
  const check = () => {
    const shown = text();
    if (shown === null || !pattern.test(shown)) return false;
    observer.disconnect();
    clearTimeout(timer);
    resolve(shown);
    return true;
  };
  const observer = new MutationObserver(check);
  const timer = setTimeout(() => {
    observer.disconnect();
    reject(new Error(`after ${ms} ms ${selector} shows ${JSON.stringify(text())}, not /${source}/`));
  }, ms);
  if (!check()) observer.observe(document, { subtree: true, childList: true, characterData: true });
})"""
POSITION = "[data-testid=position]"  # the viewer's "n / total": written once a position's panes are drawn
NAVIGATED = ("Execution context was destroyed", "navigation")  # the document waited on was replaced


def shown(page: Page, selector: str, pattern: re.Pattern[str] | str) -> str:
    """``selector``'s text once it matches ``pattern`` (a string: contained), within TIMEOUT_MS. A navigation
    while waiting (a reload, a link) starts the wait again in the new document."""
    source = pattern.pattern if isinstance(pattern, re.Pattern) else re.escape(pattern)
    flags = "i" if isinstance(pattern, re.Pattern) and pattern.flags & re.IGNORECASE else ""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        left = max(1, int((deadline - time.monotonic()) * 1000))
        try:
            return page.evaluate(SHOWN_JS, [selector, source, flags, left])
        except Error as err:
            if not any(words in str(err) for words in NAVIGATED) or time.monotonic() > deadline:
                raise
