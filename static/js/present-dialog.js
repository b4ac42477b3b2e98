// The presenter's audience link on an address the room can reach, and the Present dialog: that link large, its QR
// code (made by the server, /r/CODE/qr.svg), the room's code and the other addresses; served where only this
// computer can reach it, the dialog says so and how to serve for a room. The addresses and those sentences are
// the server's (GET /api/audience, webapp/web/audience.py).
import { $, h, targetOf } from "./dom.js";
import { offerRemote } from "./remote-link.js";

/** @typedef {{urls: string[], reachable: boolean, why: string | null}} Audience */

// What the server says of the addresses, or (it cannot be asked) the page's own address, as before.
/** @returns {Promise<Audience>} */
async function askAudience() {
  try {
    const answer = await fetch("/api/audience", { cache: "no-store" });
    if (answer.ok) return await answer.json();
  } catch {
    // the connection is down: the page's own address stands in
  }
  return { urls: [location.origin], reachable: true, why: null };
}

// Text with `commands` in backquotes, the commands set as code.
/** @param {string} text */
const withCode = (text) => text.split("`").map((part, i) => (i % 2 ? h("code", { text: part }) : part));

let bound = false;

// Present… asks for the dialog on the page it opens (this tab's session storage: once, that page only).
const ARRIVAL_KEY = "inflight-scope-present-dialog";
export function openOnArrival() {
  try {
    sessionStorage.setItem(ARRIVAL_KEY, "1");
  } catch {
    // no storage (a locked-down browser): the banner's button still opens it
  }
}

function askedOnArrival() {
  try {
    const asked = sessionStorage.getItem(ARRIVAL_KEY) === "1";
    sessionStorage.removeItem(ARRIVAL_KEY);
    return asked;
  } catch {
    return false;
  }
}

// The banner's link and its button, and the dialog drawn for `room`; the dialog opens from the button, and by
// itself when Present… opened the page; with the presenter `token`, the dialog offers the phone remote's link too.
/** @param {string} room @param {string} [token] */
export async function showAudienceLink(room, token) {
  const audience = await askAudience();
  const [link, ...others] = audience.urls.map((base) => `${base}/r/${room}`);
  const banner = $("audience-link");
  const local = h("span", { class: "present-local", text: "only this computer can open it" });
  banner.replaceChildren("Audience: ", h("a", { href: link, text: link }),
    h("span", { class: "code", text: ` code ${room}` }), ...(audience.reachable ? [] : [local]),
    h("button", { class: "btn present-open", id: "present-open", type: "button",
      text: audience.reachable ? "▦ QR code" : "⚠ Serve for a room" }));
  banner.hidden = false;
  if (!$("present-dialog")) return;
  drawDialog(room, link, others, audience);
  if (token) offerRemote($("present-remote"), room, token);
  if (!bound) bindDialog();
  bound = true;
  if (askedOnArrival()) openDialog();
}

/** @param {string} room @param {string} link @param {string[]} others @param {Audience} audience */
function drawDialog(room, link, others, audience) {
  $("present-title").textContent = audience.reachable ? "Join on your phone" : "Phones cannot open this room";
  $("present-warning").hidden = audience.reachable;
  $("present-warning").replaceChildren(...(audience.why ? withCode(audience.why) : []));
  const qr = $("present-qr");
  qr.hidden = !audience.reachable;
  if (audience.reachable) qr.src = `/r/${encodeURIComponent(room)}/qr.svg`;
  $("present-url").replaceChildren(h("a", { href: link, text: link }));
  $("present-url").classList.toggle("present-url-local", !audience.reachable);
  $("present-code").textContent = room;
  $("present-others").hidden = others.length === 0;
  $("present-others").replaceChildren("Also at: ",
    ...others.flatMap((url, i) => [i ? ", " : "", h("a", { href: url, text: url })]));
}

function openDialog() {
  $("present-dialog").hidden = false;
  $("present-close").focus({ preventScroll: true });
}

// Closed, the dialog hands the focus back to the banner's button.
function closeDialog() {
  const dialog = $("present-dialog");
  if (dialog.hidden) return;
  const held = dialog.contains(document.activeElement);
  dialog.hidden = true;
  if (held) $("present-open")?.focus({ preventScroll: true });
}

// The button opens it; Close, Escape and a click beside the card close it (keys.js leaves a modal's keys to it).
function bindDialog() {
  $("audience-link").addEventListener("click",
    (/** @type {MouseEvent} */ ev) => targetOf(ev).closest("#present-open") && openDialog());
  $("present-close").addEventListener("click", closeDialog);
  $("present-dialog").addEventListener("click",
    (/** @type {MouseEvent} */ ev) => targetOf(ev) === $("present-dialog") && closeDialog());
  document.addEventListener("keydown", (ev) => ev.key === "Escape" && closeDialog());
}
