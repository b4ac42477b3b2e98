// The client's model, over a transport (connection.js: Socket.IO; local.js offline). It holds the
// model, the last whole `state` with every `delta` since applied:
//   model = {seq, position, total, playing, speed, range, room, variants, scene}
// and hands the page whole models, each a new object (a delta is applied to copies of the parts it
// changes, so a model the page still holds never changes under it).
//
// A delta applies only to the state just before it (its seq is model.seq + 1). On a gap, or a delta before
// any state, it asks for the whole state again (`sync`, with {room} on a room's channel) and ignores deltas
// until a whole state arrives. It listens to one channel at a time: its own session (room null) or a room
// (`follow(code)`); messages that name another channel (a follower that just detached) are dropped.
import { applyOps, copyAlong } from "./delta.js";

const TRACED = ["position", "total", "variants", "scene"]; // what a delta's ops describe; the rest travels whole
const ANSWERED_WHOLE = new Set(["load", "seek", "reset", "join_room", "claim_room", "sync"]);

// page: {connect(), disconnect(), scenario(msg), model(model), error(msg), room(event, msg)}; `room` hears the
// room's own messages (poll, poll_tally, blank) on the channel followed.
export function openModel(transport, page) {
  let model = null;
  let channel = null; // the room followed, or null for this connection's own session
  let awaiting = false; // a whole state is on its way: a delta that does not follow needs no sync of its own

  const ours = (msg) => !("room" in msg) || (msg.room ?? null) === channel;

  function resync() {
    awaiting = true;
    link.send("sync", channel ? { room: channel } : {});
  }

  function fold(delta) {
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
    disconnect(reason) {
      page.disconnect(reason);
    },
    scenario(msg) {
      if (ours(msg)) page.scenario(msg);
    },
    state(msg) {
      if (!ours(msg)) return;
      model = msg;
      awaiting = false;
      page.model(model);
    },
    delta(msg) {
      if (!ours(msg)) return;
      if (!model || msg.seq !== model.seq + 1) {
        if (!awaiting) resync();
        return;
      }
      let next;
      try {
        next = fold(msg);
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
    error(msg) {
      awaiting = false; // whatever was asked for is not coming
      page.error(msg);
    },
    ...Object.fromEntries(["poll", "poll_tally", "blank"].map((event) => [event, (msg) => {
      if (channel && msg?.room === channel) page.room?.(event, msg);
    }])),
  });

  return {
    send(event, payload) {
      if (ANSWERED_WHOLE.has(event)) awaiting = true;
      link.send(event, payload);
    },
    request(event, payload) {
      if (ANSWERED_WHOLE.has(event)) awaiting = true;
      return link.request(event, payload);
    },
    // Listen to `room`'s channel (null: this connection's own session) from now on.
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
