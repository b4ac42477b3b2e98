// Coalesces a burst of calls (a dragged scrubber fires `input` on every frame) into at most one per `ms`,
// always ending with the latest call: the server's per-connection rate limit is never the one to drop it.
// `capture` turns a call's arguments into what `fn` gets, at the time of the call (an input's value then,
// not after a state message has moved it).
/**
 * @template {unknown[]} A the call's arguments @template {unknown[]} F what `fn` gets
 * @param {(...args: F) => void} fn @param {number} ms @param {(...args: A) => F} capture
 * @returns {(...args: A) => void}
 */
export function throttle(fn, ms, capture) {
  let last = -Infinity;
  let timer = 0;
  /** @type {F | null} */
  let latest = null;
  const run = () => {
    timer = 0;
    last = performance.now();
    if (latest) fn(...latest);
  };
  return (...args) => {
    latest = capture(...args);
    if (timer) return;
    const wait = last + ms - performance.now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };
}
