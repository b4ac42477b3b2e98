// The list scales to fill its area: each diagram's in-flight list gets the largest font size (between
// --fit-min and --fit-max times its stylesheet size, app.css .list-area) at which its entries, wrapped onto
// rows, fit the list's box, the same in both panes (the smaller of the two), so like is drawn like. Where the
// area's height follows its content (one column, phones: --fit: width) only the width bounds it. Fitted on
// every draw and whenever an area's size changes (pointers.js's ResizeObserver).
const fitted = new WeakMap(); // list -> the area size it was fitted to

// Every diagram under `root` (both panes) gets the same size: the largest that fits them all. Unless
// `force`, only when an area's size changed since it was fitted. Returns whether anything was fitted.
export function fitAll(root = document, force = true) {
  const lists = [...root.querySelectorAll("[data-testid=diagram]")].map(measure).filter(Boolean);
  if (!lists.length || (!force && lists.every((l) => fitted.get(l.list) === l.key))) return false;
  const sizes = lists.map(best);
  const size = Math.min(...sizes);
  for (const l of lists) {
    l.list.style.fontSize = `${size.toFixed(2)}px`;
    fitted.set(l.list, measure(l.diagram).key);
  }
  return true;
}

function measure(diagram) {
  const area = diagram.querySelector(".list-area");
  const list = area?.querySelector(".inflight-list");
  if (!list || !diagram.isConnected) return null;
  const style = getComputedStyle(area);
  const widthOnly = style.getPropertyValue("--fit").trim() === "width";
  const key = widthOnly ? `${Math.round(area.clientWidth)}` : `${Math.round(area.clientWidth)}x${Math.round(area.clientHeight)}`;
  return { diagram, area, list, style, widthOnly, key };
}

// The largest size (px) at which the list's entries fit.
function best({ list, style, widthOnly }) {
  list.style.fontSize = "";
  const base = parseFloat(getComputedStyle(list).fontSize) || 16;
  const lo = base * (parseFloat(style.getPropertyValue("--fit-min")) || 0.6);
  const hi = base * (parseFloat(style.getPropertyValue("--fit-max")) || 1);
  // bounded by the width alone, growing must not wrap more rows than the stylesheet's size does
  const most = widthOnly ? rows(list) : Infinity;
  const fits = (size) => {
    list.style.fontSize = `${size.toFixed(2)}px`;
    return inside(list, widthOnly) && (!widthOnly || rows(list) <= most);
  };
  if (fits(hi)) return hi;
  let [a, b] = [lo, hi];
  for (let i = 0; i < 9 && b - a > 0.5; i += 1) {
    const mid = (a + b) / 2;
    if (fits(mid)) a = mid;
    else b = mid;
  }
  return a;
}

// Do the list's children lie within its content box?
function inside(list, widthOnly) {
  const r = list.getBoundingClientRect();
  const cs = getComputedStyle(list);
  const top = r.top + parseFloat(cs.paddingTop);
  const bottom = r.bottom - parseFloat(cs.paddingBottom);
  for (const el of list.children) {
    const c = el.getBoundingClientRect();
    if (c.width === 0 && c.height === 0) continue;
    if (c.left < r.left - 0.5 || c.right > r.right + 0.5) return false;
    if (!widthOnly && (c.top < top - 0.5 || c.bottom > bottom + 0.5)) return false;
    // an entry's own content wider than its box (a long name) counts too
    if (el.scrollWidth > el.clientWidth + 1) return false;
  }
  return true;
}

// How many rows the entries wrap onto (they sit on their row's bottom line).
function rows(list) {
  const lines = new Set();
  for (const el of list.children) {
    const c = el.getBoundingClientRect();
    if (c.height) lines.add(Math.round(c.bottom / 4));
  }
  return lines.size;
}
