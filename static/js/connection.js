// The one Socket.IO connection of this tab; each tab has its own server-side session.
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
