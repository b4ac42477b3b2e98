// A transport with no network: answers the viewer's events as the server would, from precomputed frames.
// bundle = {scenario: <scenario message>, frames: [<state message {position, total, variants, scene} at 0..total>]},
// the versions it was made for. Every answer is a whole `state` with the next seq (where the server sends a delta,
// the state it makes), with the session's settings {playing, speed, range, room}; any of its versions can be
// shown, one alone or several side by side (the picker offers those only). It holds one scenario: `load`
// {variants?, position?, range?} replays it whatever scenario the viewer names; a `range` [from, to] locks the
// positions to that part, as the server locks an embed's.
// The speed bounds and the refusals' sentences are the server's (rules.js, made from webapp/engine/rules.py).
import { RULES } from "./rules.js";

/**
 * What the page inlines: the scenario message and a frame (a state message) per position, 0..total.
 * @typedef {{scenario: Wire.ScenarioMessage, frames: Wire.StateMessage[]}} Bundle
 * An event's payload as the viewer sends it: each field is checked here, as the server checks it.
 * @typedef {{variants?: unknown, position?: unknown, range?: unknown, speed?: unknown}} Payload
 */

// RULES.sentences[name] with its {blanks} filled from `blanks`.
/** @param {keyof typeof RULES.sentences} name @param {Record<string, unknown>} blanks */
const said = (name, blanks = {}) => RULES.sentences[name].replace(/\{(\w+)\}/g, (_, blank) => String(blanks[blank]));

/** @param {Bundle} bundle */
export function localConnection(bundle) {
  /** @param {Record<string, (msg?: object) => void>} handlers */
  return function open(handlers) {
    const total = bundle.scenario.total;
    const held = bundle.scenario.variants; // the versions the frames hold
    /** @type {string[] | null} */
    let variants = null; // null until `load`
    let position = 0;
    let range = [0, total];
    let playing = false;
    let speed = 1;
    /** @type {number | undefined} */
    let timer;
    let seq = 0;

    // Delivered asynchronously and in order, as a socket would: the viewer may send from inside a handler.
    /** @param {string} event @param {object} msg */
    const deliver = (event, msg) => queueMicrotask(() => handlers[event]?.(msg));
    // `variants` is set by the first `load`, before anything else is answered (send)
    const loaded = () => /** @type {string[]} */ (variants);
    const single = () => loaded().length === 1;

    function scenarioMessage() {
      const msg = { ...bundle.scenario, versions: bundle.scenario.versions?.filter((v) => held.includes(v.name)) };
      if (!single()) return { ...msg, variants };
      return { ...msg, variants, divergence: null };
    }

    /** @returns {Model} */
    function stateMessage() {
      const frame = bundle.frames[position];
      /** @template T @param {Record<string, T>} all @returns {Record<string, T>} */
      const shown = (all) => Object.fromEntries(loaded().map((v) => [v, all[v]]));
      const settings = { playing, speed, range: [...range], room: null };
      const scene = { ...frame.scene, ...settings, panes: shown(frame.scene.panes) };
      if (single()) Object.assign(scene, { divergence: null, positionText: scene.counter });
      seq += 1;
      return { seq, ...settings, position: frame.position, total: frame.total, variants: shown(frame.variants), scene };
    }

    function stop() {
      clearTimeout(timer);
      playing = false;
    }

    function tick() {
      position += 1;
      playing = position < range[1];
      if (playing) timer = setTimeout(tick, 1000 / speed);
      deliver("state", stateMessage());
    }

    /** @param {Payload} payload */
    function load(payload) {
      const wanted = payload.variants ?? held;
      if (!Array.isArray(wanted) || !wanted.length || wanted.some((v) => !held.includes(v))) {
        throw new Error(`this file holds ${held.join(", ")}: variants must be a non-empty list of those`);
      }
      const lock = lockOf(payload.range);
      const start = checked(payload.position ?? lock[0], lock);
      stop();
      range = lock;
      variants = held.filter((v) => wanted.includes(v)); // in the file's order, as the server's table
      position = start;
      deliver("scenario", scenarioMessage());
    }

    /** @param {unknown} target @param {number[]} [lock] @returns {number} */
    function checked(target, [lo, hi] = range) {
      const at = /** @type {number} */ (target); // compared only once Number.isInteger says it is one
      if (!Number.isInteger(at) || at < lo || at > hi) {
        throw new Error(said("position", { lo, hi, got: JSON.stringify(target) }));
      }
      return at;
    }

    /** @param {unknown} asked @returns {number[]} */
    function lockOf(asked) {
      if (asked === undefined || asked === null) return [0, total];
      const ok = Array.isArray(asked) && asked.length === 2 && asked.every(Number.isInteger)
        && 0 <= asked[0] && asked[0] <= asked[1] && asked[1] <= total;
      if (!ok) throw new Error(said("range", { total, got: JSON.stringify(asked) }));
      return [asked[0], asked[1]];
    }

    /** @param {unknown} target */
    function seek(target) {
      position = checked(target);
    }

    /** @param {Payload} payload */
    function play(payload) {
      const wanted = payload.speed ?? speed;
      if (typeof wanted !== "number" || !(wanted >= RULES.minSpeed && wanted <= RULES.maxSpeed)) {
        throw new Error(said("speed", { got: JSON.stringify(wanted) }));
      }
      stop();
      speed = wanted;
      playing = position < range[1];
      if (playing) timer = setTimeout(tick, 1000 / speed);
    }

    /** @type {Record<string, (payload: Payload) => void>} */
    const actions = {
      load,
      step: () => seek(Math.min(position + 1, range[1])),
      back: () => seek(Math.max(position - 1, range[0])),
      seek: (payload) => seek(payload.position),
      reset: () => {
        stop();
        seek(range[0]);
      },
      play,
      pause: stop,
      sync: () => {},
    };

    queueMicrotask(() => handlers.connect?.());
    return {
      /** @param {string} event @param {unknown} [payload] whatever the viewer sends: checked here */
      send(event, payload) {
        try {
          if (!actions[event]) throw new Error(`unknown event '${event}'`);
          payload ??= {};
          if (typeof payload !== "object") throw new Error(said("payload", { event }));
          if (event !== "load" && variants === null) throw new Error(said("notLoaded"));
          actions[event](/** @type {Payload} */ (payload));
          deliver("state", stateMessage());
        } catch (err) {
          deliver("error", { message: err instanceof Error ? err.message : String(err), event });
        }
      },
    };
  };
}
