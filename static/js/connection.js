// The one Socket.IO connection of this tab, the served page's transport (the offline file uses local.js instead,
// and never bundles this): each connection has its own server-side session. Socket.IO reconnects by itself,
// and `connect` fires every time; model.js holds what was received and asks for it again when needed.
import { io } from "../vendor/socket.io/socket.io.esm.min.js";

export function connect(handlers) {
  const socket = io({ transports: ["websocket", "polling"] });
  for (const [event, fn] of Object.entries(handlers)) socket.on(event, fn);
  return {
    send(event, payload) {
      socket.emit(event, payload ?? {});
    },
    request(event, payload) {
      return socket.timeout(10000).emitWithAck(event, payload ?? {});
    },
  };
}
