// The client's model, over a transport (connection.js: Socket.IO; local.js offline). It holds the
// model, the last whole `state` with every `delta` since applied:
//   model = {seq, position, total, playing, speed, range, room, variants, scene}
// and hands the page whole models, each a new object (a delta is applied to copies of the parts it
// changes, so a model the page still holds never changes under it).
//
// A delta applies only to the state just before it (its seq is model.seq + 1); one numbered at most model.seq
// is already in the whole state held (a room's joiner reads the room's record, then hears the delta that made
// it) and is dropped. On a gap, or a delta before any state, it asks for the whole state again (`sync`, with
// {room} on a room's channel) and ignores deltas until a whole state arrives. It listens to one channel at a
// time: its own session (room null) or a room (`follow(code)`); messages that name another channel (a follower
// that just detached) are dropped.
// A state or delta names the scenario it belongs to (`key`, as its `scenario` message does): one that names
// another (a follower whose process missed the room's new scenario, e.g. while Redis was down) asks for the
// scenario and the whole state again, and nothing is drawn against the wrong scenario meanwhile.
import { applyOps, copyAlong } from "./delta.js";
import { VOTE_EVENTS } from "./vote-state.js";

/** @type {(keyof Model)[]} */
const TRACED = ["position", "total", "variants", "scene"]; // what a delta's ops describe; the rest travels whole
// What each request is answered with: a scenario and its whole state, or a whole state.
/** @type {Record<string, "scenario" | "state">} */
const ANSWERED_WHOLE = { load: "scenario", join_room: "scenario", seek: "state", reset: "state", claim_room: "state",
  sync: "state" };

/**
 * A `delta` as a channel sends it: the presenter's, with what travels whole beside its ops (webapp/web/hub.py).
 * @typedef {Wire.DeltaMessage & {key?: string, playing: boolean, speed: number, room?: string | null}} Delta
 * What a channel may send the model: a message naming its room (null or none: the connection's own session) and
 * the scenario it is about.
 * @typedef {{room?: string | null, key?: string}} Addressed
 * A transport (connection.js connect, local.js localConnection): it hands each message to its handler, and
 * sends; only a socket's (connection.js) answers a request.
 * @typedef {(handlers: Record<string, (...args: any[]) => void>) => {send: Function, request?: Function}} Transport
 * What the model hands the page. A room's messages are arbitrary JSON to the model: the page reads them.
 * @typedef {{connect(): void, disconnect(reason?: string): void, scenario(msg: ScenarioMessage): void,
 *   model(model: Model): void, error(msg: Wire.Reply): void, room?(event: string, msg: any): void}} ModelPage
 */

// The page's `room` hears the room's own messages (poll, poll_tally, blank, and its vote's: VOTE_EVENTS) on the
// channel followed.
/**
 * @param {Transport} transport
 * @param {ModelPage | Record<string, (...args: any[]) => void>} page the page's handlers, or a bus's publisher of
 * each topic (viewer.js)
 */
export function openModel(transport, page) {
  /** @type {Model | null} */
  let model = null;
  /** @type {string | null} */
  let channel = null; // the room followed, or null for this connection's own session
  // "state" or "scenario" on its way (false: nothing): a delta that does not follow needs no sync of its own
  /** @type {false | "state" | "scenario"} */
  let awaiting = false;
  /** @type {string | null} */
  let key = null; // the key of the scenario the page holds (null: none yet, or a transport without keys)

  const ours = (/** @type {Addressed} */ msg) => !("room" in msg) || (msg.room ?? null) === channel;

  function resync(scenario = false) {
    awaiting = scenario ? "scenario" : "state";
    link.send("sync", { ...(channel ? { room: channel } : {}), ...(scenario ? { scenario: true } : {}) });
  }

  // Whether `msg` belongs to another scenario than the one held; if so the scenario is asked for again.
  /** @param {Addressed} msg */
  function stale(msg) {
    if (msg.key === undefined || msg.key === key) return false;
    if (awaiting !== "scenario") resync(true);
    model = null;
    return true;
  }

  /** @param {Model} model @param {Delta} delta @returns {Model} */
  function fold(model, delta) {
    const traced = Object.fromEntries(TRACED.map((key) => [key, model[key]]));
    const next = applyOps(copyAlong(traced, delta.ops), delta.ops);
    return { ...model, ...next, seq: delta.seq, playing: delta.playing, speed: delta.speed };
  }

  const link = transport({
    connect() {
      model = null; // a new connection is a new server session: what was held describes nothing there
      awaiting = false;
      page.connect();
    },
    /** @param {string} [reason] */
    disconnect(reason) {
      page.disconnect(reason);
    },
    /** @param {ScenarioMessage} msg */
    scenario(msg) {
      if (!ours(msg)) return;
      key = msg.key ?? null;
      page.scenario(msg);
    },
    /** @param {Model} msg */
    state(msg) {
      if (!ours(msg) || stale(msg)) return;
      model = msg;
      awaiting = false;
      page.model(model);
    },
    /** @param {Delta} msg */
    delta(msg) {
      if (!ours(msg) || stale(msg) || (model && msg.seq <= model.seq)) return;
      if (!model || msg.seq !== model.seq + 1) {
        if (!awaiting) resync();
        return;
      }
      let next;
      try {
        next = fold(model, msg);
      } catch {
        next = null; // ops that do not fit the copy held: it was not the state they were made against
      }
      if (!next || next.position !== msg.position) {
        model = null;
        resync();
        return;
      }
      model = next;
      page.model(model);
    },
    /** @param {Wire.Reply} msg */
    error(msg) {
      awaiting = false; // whatever was asked for is not coming
      page.error(msg);
    },
    // a room's message is the page's to read: to the model it is any JSON naming its room
    ...Object.fromEntries(["poll", "poll_tally", "blank", ...VOTE_EVENTS].map((event) => [event,
      (/** @type {any} */ msg) => {
        if (channel && msg?.room === channel) page.room?.(event, msg);
      }])),
  });

  return {
    /** @param {string} event @param {object} [payload] */
    send(event, payload) {
      awaiting = ANSWERED_WHOLE[event] ?? awaiting;
      link.send(event, payload);
    },
    /** @param {string} event @param {object} [payload] */
    request(event, payload) {
      awaiting = ANSWERED_WHOLE[event] ?? awaiting;
      // only a socket's transport answers (offline, local.js, requests nothing)
      return /** @type {Function} */ (link.request)(event, payload);
    },
    // Listen to `room`'s channel (null: this connection's own session) from now on.
    /** @param {string | null | undefined} room */
    follow(room) {
      if ((room ?? null) === channel) return;
      channel = room ?? null;
      model = null;
    },
    get model() {
      return model;
    },
  };
}
