// A talk's timer: the time since it started (a click on its button starts it from zero), and the time of day.
import { $ } from "./dom.js";

/** @param {string} timerId the button showing the time since @param {string} [clockId] where the time of day goes */
export function startTimer(timerId, clockId) {
  let since = Date.now();
  const tick = () => {
    const s = Math.floor((Date.now() - since) / 1000);
    const hours = Math.floor(s / 3600);
    const mmss = `${String(Math.floor(s / 60) % 60).padStart(hours ? 2 : 1, "0")}:${String(s % 60).padStart(2, "0")}`;
    $(timerId).textContent = hours ? `${hours}:${mmss}` : mmss;
    if (clockId) $(clockId).textContent = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  };
  $(timerId).addEventListener("click", () => {
    since = Date.now();
    tick();
  });
  tick();
  setInterval(tick, 1000);
}
