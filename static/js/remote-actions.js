// What the phone remote (remote.js) offers, one button each: the event it sends with the room and the remote
// token (the presenter's events: webapp/web/sockets.py, the vote's webapp/web/votes.py), when it shows, what
// extra it sends; the server checks the token on each. A vote opened here offers the actions proposed (those
// after which the versions part soonest), as the presenter's "Ask the room" does when nothing is ticked.

/**
 * @typedef {{blank: boolean, poll: null | {open: boolean, answered?: number}, at: number | null,
 *   end: number | null, vote: null | {answered: number}}} RemoteRoom
 */
/** @typedef {{id: string, label: (room: RemoteRoom) => string, event: string, shown: (room: RemoteRoom) => boolean,
 *   payload?: (room: RemoteRoom) => object, wide?: boolean}} RemoteAction */

/** @type {RemoteAction[]} */
export const REMOTE_ACTIONS = [
  { id: "poll_open", event: "poll_open", label: () => "Open poll", shown: (room) => !room.poll?.open },
  { id: "poll_reveal", event: "poll_reveal", label: () => "Reveal poll", shown: (room) => Boolean(room.poll?.open) },
  { id: "poll_cancel", event: "poll_cancel", label: () => "Withdraw poll", shown: (room) => Boolean(room.poll?.open) },
  { id: "vote_open", event: "vote_open", label: () => "Ask the room", shown: (room) => !room.vote },
  { id: "vote_close", event: "vote_close", label: () => "Close the vote", shown: (room) => Boolean(room.vote) },
  { id: "vote_cancel", event: "vote_cancel", label: () => "Withdraw vote", shown: (room) => Boolean(room.vote) },
  { id: "blank", event: "blank", label: (room) => (room.blank ? "Unblank screens" : "Blank screens"),
    shown: () => true, payload: (room) => ({ on: !room.blank }) },
  { id: "back", event: "back", label: () => "‹ Back", shown: () => true },
  { id: "step", event: "step", label: () => "Next ›", shown: () => true, wide: true },
];
