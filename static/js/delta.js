// Reads the ops of a `delta` message (the format: docs/protocol.md, "The delta format"), which
// webapp/presenter/delta.py `diff` writes; its `apply` reads them the same way for Python clients.

/** @typedef {string | number} Key an object key or a list index */
/** @typedef {[number, ...Key[]]} Path a path as written: how many keys it shares with the one before, then its own */
/**
 * An op: [path] deletes, [path, value] sets, [path, start, count, items] splices (the value and the items are
 * whatever JSON the document holds there).
 * @typedef {[Path] | [Path, any] | [Path, number, number, any[]]} Op
 */

// `doc` is changed in place; the result is returned, since [[0], value] replaces the root itself.
/**
 * @param {any} doc the document: any JSON (a traced variant, model.js)
 * @param {Wire.DeltaMessage["ops"]} ops
 * @returns {any} the document, changed
 */
export function applyOps(doc, ops) {
  const whole = paths(ops);
  for (const [i, op] of /** @type {Op[]} */ (ops).entries()) {
    const path = whole[i];
    if (op.length === 2 && !path.length) {
      doc = op[1];
      continue;
    }
    let parent = doc;
    const walk = op.length === 4 ? path : path.slice(0, -1);  // a splice walks to the list itself
    for (const key of walk) parent = parent[key];
    if (op.length === 1) delete parent[path[path.length - 1]];
    else if (op.length === 2) parent[path[path.length - 1]] = op[1];
    else splice(parent, op[1], op[2], op[3]);
  }
  return doc;
}

// The whole path of each op: [[0, "scene", "caption"], ...], [[1, "position"], ...] -> ["scene", "caption"],
// ["scene", "position"].
/** @param {Wire.DeltaMessage["ops"]} ops @returns {Key[][]} */
export function paths(ops) {
  /** @type {Key[]} */
  let path = [];
  return /** @type {Op[]} */ (ops).map((op) => {
    path = [...path.slice(0, op[0][0]), ...op[0].slice(1)];
    return path;
  });
}

// list[start:start + count] = items, as Python's slice assignment; no spread, so any length is fine.
/** @param {unknown[]} list @param {number} start @param {number} count @param {unknown[]} items */
function splice(list, start, count, items) {
  const rest = list.splice(start);
  for (const item of items) list.push(item);
  for (let i = count; i < rest.length; i += 1) list.push(rest[i]);
}

// The containers along every op's path, copied (once each) from `doc`: applying `ops` to the result leaves
// `doc` itself untouched, and unchanged subtrees are shared between the two.
/** @param {any} doc the document: any JSON @param {Wire.DeltaMessage["ops"]} ops @returns {any} */
export function copyAlong(doc, ops) {
  /** @type {Set<unknown>} */
  const fresh = new Set();
  /** @param {any} value a container of the document @returns {any} */
  const copy = (value) => {
    const made = Array.isArray(value) ? [...value] : { ...value };
    fresh.add(made);
    return made;
  };
  const root = copy(doc);
  const whole = paths(ops);
  for (const [n, op] of ops.entries()) {
    const path = whole[n];
    const depth = op.length === 4 ? path.length : path.length - 1;
    let node = root;
    for (let i = 0; i < depth; i += 1) {
      if (!fresh.has(node[path[i]])) node[path[i]] = copy(node[path[i]]);
      node = node[path[i]];
    }
  }
  return root;
}
