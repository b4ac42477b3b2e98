"""Waiting for a page to show something, ended by the page's own change: the wait is a promise in the page, settled
by a MutationObserver the moment its condition holds. Playwright's ``expect`` polls instead, at 20, 50, 100, 100 ms
and then every 500 ms, so a step drawn in 300 ms was seen after 770 ms, and the worker's core sat idle meanwhile."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Error, Page

from tests.e2e.conftest import TIMEOUT_MS

POSITION = "[data-testid=position]"  # the viewer's "n / total": written once a position's panes are drawn
NAVIGATED = ("Execution context was destroyed", "navigation")  # the document waited on was replaced

# A condition's JS: (arg) => what it waits for (truthy), or a falsy value; `said(arg)`: what the page shows instead.
TEXT_JS = """(arg) => {
  const el = document.querySelector(arg.selector);
  const text = el === null ? null : el.textContent.replace(/\\u200b/g, '').trim().replace(/\\s+/g, ' ');
  return text !== null && new RegExp(arg.source, arg.flags).test(text) && text;
}"""
TEXT_SAID_JS = """(arg) => `${arg.selector} shows `
  + `${JSON.stringify(document.querySelector(arg.selector)?.textContent ?? null)}, not /${arg.source}/`"""
COUNT_JS = "(arg) => document.querySelectorAll(arg.selector).length === arg.count"
COUNT_SAID_JS = "(arg) => `${document.querySelectorAll(arg.selector).length} of ${arg.selector}, not ${arg.count}`"


def until_page(page: Page, condition_js: str, said_js: str, arg: dict, timeout_ms: int | None = None) -> object:
    """``condition_js(arg)``'s first truthy value, asked now and at every change of the document, within
    ``timeout_ms`` (TIMEOUT_MS); then it fails with ``said_js(arg)``. A navigation while waiting starts again in
    the new document."""
    waiting = f"""([arg, ms]) => new Promise((resolve, reject) => {{
      const holds = {condition_js};
      const said = {said_js};
      const check = () => {{
        const found = holds(arg);
        if (!found) return false;
        observer.disconnect();
        clearTimeout(timer);
        resolve(found);
        return true;
      }};
      const observer = new MutationObserver(check);
      const timer = setTimeout(() => {{
        observer.disconnect();
        reject(new Error(`after ${{ms}} ms ${{said(arg)}}`));
      }}, ms);
      if (!check()) observer.observe(document, {{ subtree: true, childList: true, characterData: true }});
    }})"""
    deadline = time.monotonic() + (timeout_ms or TIMEOUT_MS) / 1000
    while True:
        left = max(1, int((deadline - time.monotonic()) * 1000))
        try:
            return page.evaluate(waiting, [arg, left])
        except Error as err:
            if not any(words in str(err) for words in NAVIGATED) or time.monotonic() > deadline:
                raise


def shown(page: Page, selector: str, pattern: re.Pattern[str] | str, timeout_ms: int | None = None) -> str:
    """``selector``'s text (textContent, white space normalised, as Playwright's to_have_text reads it) once it
    matches ``pattern`` (a string: contained)."""
    source = pattern.pattern if isinstance(pattern, re.Pattern) else re.escape(pattern)
    flags = "i" if isinstance(pattern, re.Pattern) and pattern.flags & re.IGNORECASE else ""
    arg = {"selector": selector, "source": source, "flags": flags}
    return str(until_page(page, TEXT_JS, TEXT_SAID_JS, arg, timeout_ms))


def counted(page: Page, selector: str, count: int) -> None:
    """Once exactly ``count`` elements match ``selector``."""
    until_page(page, COUNT_JS, COUNT_SAID_JS, {"selector": selector, "count": count})
