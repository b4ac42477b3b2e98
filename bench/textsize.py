"""How large a page draws its text, read in the browser: the smallest text a viewer sees and the outcome badges'.
Shared by bench/readability.py (every built-in's key positions) and tests/e2e/test_presenting_sizes.py."""

# [font size px, the element's class or tag, its text] of the smallest visible text node in #app: text that is
# displayed, not transparent, has a box and lies at least partly in the viewport (what a hidden element, a folded
# disclosure or the scrolled-away holds is not seen)
SMALLEST_TEXT_JS = """() => {
  let smallest = null;
  const walker = document.createTreeWalker(document.querySelector('#app'), NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!node.textContent.trim() || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (!box.width || !box.height || box.bottom <= 0 || box.top >= innerHeight || box.right <= 0
        || box.left >= innerWidth) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const what = el.className || el.tagName;
    if (!smallest || size < smallest[0]) smallest = [size, what, node.textContent.trim().slice(0, 40)];
  }
  return smallest;
}"""

# [[text, font size px, whether it is shown]] of each pane's outcome badge
BADGES_JS = """() => [...document.querySelectorAll('#panes [data-testid=badge]')].map((badge) =>
  [badge.textContent, parseFloat(getComputedStyle(badge).fontSize), badge.checkVisibility()])"""
