// The one Socket.IO connection of this tab, the served page's transport (the offline file uses local.js instead,
// and never bundles this): each connection has its own server-side session. Socket.IO reconnects by itself,
// and `connect` fires every time; model.js holds what was received and asks for it again when needed.
import { io } from "../vendor/socket.io/socket.io.esm.min.js";

// Tried again after 0.5 s, then twice as long each time up to 3 s, each wait spread by half (Socket.IO's defaults
// are 1 s and 5 s): a speaker's server restarted mid-talk is back on every screen within a few seconds of
// starting, and a room's few hundred phones still come back spread out, not at once.
const RECONNECT = { reconnectionDelay: 500, reconnectionDelayMax: 3000, randomizationFactor: 0.5 };

// Opened as this module runs: a page names its bundle first (webapp/web/bundles.py), so the websocket's round
// trips overlap the download of the rest of the page's modules.
const socket = io({ transports: ["websocket", "polling"], ...RECONNECT });

/** @param {Record<string, (...args: any[]) => void>} handlers */
export function connect(handlers) {
  for (const [event, fn] of Object.entries(handlers)) socket.on(event, fn);
  if (socket.connected) queueMicrotask(() => handlers.connect?.()); // connected before anyone listened
  return {
    /** @param {string} event @param {object} [payload] */
    send(event, payload) {
      socket.emit(event, payload ?? {});
    },
    /** @param {string} event @param {object} [payload] */
    request(event, payload) {
      return socket.timeout(10000).emitWithAck(event, payload ?? {});
    },
  };
}
