// What the phone remote (remote.js) offers, one button each: the event it sends with the room and the remote
// token (the presenter's events, webapp/web/sockets.py), when it shows, what extra it sends. The room's other
// features add theirs here (a vote's open and close: `REMOTE_ACTIONS.push({...})` from a module the remote page
// loads before remote.js), and the remote shows them as it shows these; the server checks the token on each.

/**
 * @typedef {{blank: boolean, poll: null | {open: boolean, answered?: number}, at: number | null,
 *   end: number | null}} RemoteRoom
 */
/** @typedef {{id: string, label: (room: RemoteRoom) => string, event: string, shown: (room: RemoteRoom) => boolean,
 *   payload?: (room: RemoteRoom) => object, wide?: boolean}} RemoteAction */

/** @type {RemoteAction[]} */
export const REMOTE_ACTIONS = [
  { id: "poll_open", event: "poll_open", label: () => "Open poll", shown: (room) => !room.poll?.open },
  { id: "poll_reveal", event: "poll_reveal", label: () => "Reveal poll", shown: (room) => Boolean(room.poll?.open) },
  { id: "poll_cancel", event: "poll_cancel", label: () => "Withdraw poll", shown: (room) => Boolean(room.poll?.open) },
  { id: "blank", event: "blank", label: (room) => (room.blank ? "Unblank screens" : "Blank screens"),
    shown: () => true, payload: (room) => ({ on: !room.blank }) },
  { id: "back", event: "back", label: () => "‹ Back", shown: () => true },
  { id: "step", event: "step", label: () => "Next ›", shown: () => true, wide: true },
];
