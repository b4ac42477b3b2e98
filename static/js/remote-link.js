// The presenter's phone remote (webapp/web/remote.py): its private link and QR code, asked for with the presenter
// token, and its revocation. Drawn only on the presenter's own screens (the speaker view; the Present dialog, folded
// behind a button, since that dialog may be on the projector): whoever scans the code drives the room.
import { h, messageOf } from "./dom.js";

export const REMOTE_WARNING = "Whoever scans this code drives the room: keep it off the projector.";

/** @param {string} path @param {string} room @param {string} token */
async function ask(path, room, token) {
  const answer = await fetch(`/api/rooms/${encodeURIComponent(room)}/${path}`, {
    method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }),
  });
  const body = await answer.json().catch(() => ({ message: `the server answered ${answer.status}` }));
  if (!answer.ok) throw new Error(body.message);
  return body;
}

// A button in `box` that shows the room's remote link (the same one until it is revoked) with its QR code and a
// Revoke button; a revoked link stops working on the phone at its next command, and a new one can be shown.
/** @param {HTMLElement} box @param {string} room @param {string} token */
export function offerRemote(box, room, token) {
  const show = h("button", { class: "btn", type: "button", "data-testid": "remote-show", text: "📱 Phone remote…" });
  const panel = h("div", { class: "remote-link", "data-testid": "remote-link", hidden: true });
  box.replaceChildren(show, panel);
  const say = (/** @type {string} */ text) =>
    panel.replaceChildren(h("p", { class: "remote-link-said", role: "status", text }));

  async function draw() {
    panel.hidden = false;
    show.hidden = true;
    say("Asking the server for the remote link…");
    try {
      const { link, qr } = await ask("remote", room, token);
      const revoke = h("button", { class: "btn", type: "button", "data-testid": "remote-revoke", text: "Revoke" });
      const hide = h("button", { class: "btn", type: "button", text: "Hide" });
      panel.replaceChildren(h("h3", { class: "remote-link-title", text: "Your phone as the clicker" }),
        h("img", { class: "remote-qr", alt: "QR code of your phone remote", "data-testid": "remote-qr",
          src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr)}` }),
        h("p", { class: "remote-link-warning", text: REMOTE_WARNING }),
        h("p", { class: "remote-link-url" }, h("a", { href: link, target: "_blank", rel: "noreferrer",
          "data-testid": "remote-url", text: "Open the remote here" })),
        h("p", { class: "remote-link-keys" }, revoke, " ", hide));
      revoke.addEventListener("click", async () => {
        try {
          await ask("remote/revoke", room, token);
          say("Revoked: that link no longer drives the room.");
          panel.append(h("button", { class: "btn", type: "button", text: "New remote link",
            onclick: draw }));
        } catch (err) {
          say(`Not revoked: ${messageOf(err)}`);
        }
      });
      hide.addEventListener("click", () => {
        panel.hidden = true;
        show.hidden = false;
      });
    } catch (err) {
      say(`No remote link: ${messageOf(err)}`);
    }
  }
  show.addEventListener("click", draw);
}
