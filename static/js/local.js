// A transport with no network: answers the viewer's events as the server would, from precomputed frames.
// bundle = {scenario: <scenario message>, frames: [<state message {position, total, variants, scene} at 0..total>]},
// the versions it was made for. Every answer is a whole `state` with the next seq (where the server sends a delta,
// the state it makes), with the session's settings {playing, speed, range, room}; any of its versions can be
// shown, one alone or several side by side (the picker offers those only). It holds one scenario: `load`
// {variants?, position?, range?} replays it whatever scenario the viewer names; a `range` [from, to] locks the
// positions to that part, as the server locks an embed's.
// The speed bounds and the refusals' sentences are the server's (rules.js, made from webapp/engine/rules.py).
import { RULES } from "./rules.js";

// RULES.sentences[name] with its {blanks} filled from `blanks`.
const said = (name, blanks = {}) => RULES.sentences[name].replace(/\{(\w+)\}/g, (_, blank) => String(blanks[blank]));

export function localConnection(bundle) {
  return function open(handlers) {
    const total = bundle.scenario.total;
    const held = bundle.scenario.variants; // the versions the frames hold
    let variants = null; // null until `load`
    let position = 0;
    let range = [0, total];
    let playing = false;
    let speed = 1;
    let timer = null;
    let seq = 0;

    // Delivered asynchronously and in order, as a socket would: the viewer may send from inside a handler.
    const deliver = (event, msg) => queueMicrotask(() => handlers[event]?.(msg));
    const single = () => variants.length === 1;

    function scenarioMessage() {
      const msg = { ...bundle.scenario, versions: bundle.scenario.versions?.filter((v) => held.includes(v.name)) };
      if (!single()) return { ...msg, variants };
      return { ...msg, variants, divergence: null };
    }

    function stateMessage() {
      const frame = bundle.frames[position];
      const shown = (all) => Object.fromEntries(variants.map((v) => [v, all[v]]));
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

    function checked(target, [lo, hi] = range) {
      if (!Number.isInteger(target) || target < lo || target > hi) {
        throw new Error(said("position", { lo, hi, got: JSON.stringify(target) }));
      }
      return target;
    }

    function lockOf(asked) {
      if (asked === undefined || asked === null) return [0, total];
      const ok = Array.isArray(asked) && asked.length === 2 && asked.every(Number.isInteger)
        && 0 <= asked[0] && asked[0] <= asked[1] && asked[1] <= total;
      if (!ok) throw new Error(said("range", { total, got: JSON.stringify(asked) }));
      return [asked[0], asked[1]];
    }

    function seek(target) {
      position = checked(target);
    }

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
      send(event, payload) {
        try {
          if (!actions[event]) throw new Error(`unknown event '${event}'`);
          payload ??= {};
          if (typeof payload !== "object") throw new Error(said("payload", { event }));
          if (event !== "load" && variants === null) throw new Error(said("notLoaded"));
          actions[event](payload);
          deliver("state", stateMessage());
        } catch (err) {
          deliver("error", { message: err instanceof Error ? err.message : String(err), event });
        }
      },
    };
  };
}
