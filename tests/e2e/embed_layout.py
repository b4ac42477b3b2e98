"""What an embed's picture looks like to a reader, measured in its frame (tests/e2e/test_embed_sizes.py): the
smallest text in the panes, the label boxes that overlap (a label over another, over a lane, or under the control
bar) and whether the frame scrolls sideways; and the page of our own that frames it, as a blog column would."""

from __future__ import annotations

import html

# {smallest: [px, class, text], overlaps: [[a, b]], hscroll: bool, outside: [label]} of the embed's panes.
# Labels: the list's entries and the tags drawn above them, the walk's hint badges, the lanes' names and chips, the
# list's title and hint line, the pane's head and caption, the pointers' text. A text label's box is its text's
# (a Range); a boxed one's its border box. Two labels overlap where their boxes share more than a pixel each way
# and neither holds the other; a label of the list overlaps a lane where its box meets the lane's.
METRICS_JS = """() => {
  const seen = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  const textBox = (el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return r.getBoundingClientRect();
  };
  const name = (el) => `${el.className?.baseVal ?? el.className ?? el.tagName}: ${el.textContent.trim().slice(0, 24)}`;
  const panes = document.querySelector('#panes');
  let smallest = null;
  const walker = document.createTreeWalker(panes, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!node.textContent.trim() || !seen(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (!smallest || size < smallest[0]) smallest = [size, name(el)];
  }
  const TEXT = '.lane-name, .list-title, .hint-summary, .pane-caption, .pane-head h2, .pane-time, .empty, '
    + '.inflight-list > .arrow';
  const BOXED = '.marker, .unseen-tag, .gone-tag, .walk-tag, .entry > .box, .ghost > .box, .front-mark, .chip, '
    + '.pane-badge, .pane-head .tag, .pointers text';
  const labels = [...panes.querySelectorAll(`${TEXT}, ${BOXED}`)].filter(seen)
    .map((el) => ({ el, box: el.matches(TEXT) ? textBox(el) : el.getBoundingClientRect(),
                    inList: Boolean(el.closest('.list-area')) }))
    .filter((l) => l.box.width > 0 && l.box.height > 0);
  const meets = (a, b, by = 1) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > by
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > by;
  const overlaps = [];
  for (let i = 0; i < labels.length; i += 1) {
    for (let j = i + 1; j < labels.length; j += 1) {
      const [a, b] = [labels[i], labels[j]];
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      if (meets(a.box, b.box)) overlaps.push([name(a.el), name(b.el)]);
    }
  }
  const lanes = [...panes.querySelectorAll('.lane')].filter(seen).map((el) => el.getBoundingClientRect());
  for (const l of labels.filter((l) => l.inList)) {
    if (lanes.some((lane) => meets(l.box, lane, 0))) overlaps.push([name(l.el), 'a lane']);
  }
  // the bar covers neither the panes' box nor, where they do not clip what they hold (scrolling it), a label
  const bar = document.querySelector('#app > .controls');
  if (bar && seen(bar)) {
    const r = bar.getBoundingClientRect();
    if (meets(panes.getBoundingClientRect(), r, 0)) overlaps.push(['the panes', 'the control bar']);
    if (getComputedStyle(panes).overflowY === 'visible') {
      for (const l of labels) if (meets(l.box, r, 0)) overlaps.push([name(l.el), 'the control bar']);
    }
  }
  const outside = labels.filter((l) => l.box.left < -1 || l.box.right > innerWidth + 1).map((l) => name(l.el));
  const root = document.scrollingElement;
  const hscroll = root.scrollWidth > root.clientWidth + 1
    || [...document.querySelectorAll('#app, #panes')].some((el) => el.scrollWidth > el.clientWidth + 1);
  return { smallest, overlaps, hscroll, outside };
}"""


def host_page(width: int, height: int, src: str) -> str:
    """A writer's page: a column of text and the embed in an iframe of `width` x `height` px."""
    return (f"<!doctype html><meta charset=utf-8><title>An article</title><body style='margin:8px'>"
            f"<p>A paragraph before the picture.</p><iframe src='{html.escape(src)}' width={width} height={height}"
            f" title='kube-scheduler lost marker' style='border:0;display:block'></iframe><p>And after it.</p>")
