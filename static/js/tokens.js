// The design tokens, written once: every colour of the two themes ([light, dark]), the lanes' shares of a row, the
// corners of each lane's chips (px: top-left, top-right, bottom-right, bottom-left) and the numbers of an arrow's
// geometry (its curve, corners, head, cut and way round the entries), the least text size (px) presentation mode, an
// embed and a slide export (1280 px wide) draw, with the share of an entry's small print (its id, its count) in its
// list's size, and the climax's beats (ms, a step by hand). The page's modules import them (pointers.js, route.js,
// animate.js); webapp/export/tokens.py reads this file as JSON for the SVG export and the animated ones, and serves
// them to the stylesheets as custom properties (css/tokens.css, inlined in the offline file). So everything after
// "export const TOKENS =" stays one JSON object (double quotes, no comments, no trailing commas). What each one means:
// docs/rendering.md.
export const TOKENS = {
  "colours": {
    "bg": ["#f6f7f9", "#0f1318"],
    "panel": ["#ffffff", "#171c23"],
    "fg": ["#15191f", "#e8edf3"],
    "muted": ["#5a6472", "#a3aebb"],
    "border": ["#c9d0da", "#333d4a"],
    "accent": ["#1f5fd1", "#6ea8ff"],
    "accent-fg": ["#ffffff", "#0b1220"],
    "active": ["#1f5fd1", "#7fb0ff"],
    "head-bg": ["#c5d9fb", "#24406e"],
    "backoff": ["#a35c00", "#ffb74d"],
    "unsched": ["#b3261e", "#ff8a80"],
    "inflight": ["#00796b", "#4dd0c0"],
    "event-bg": ["#eef2f8", "#1f2833"],
    "event-border": ["#55657d", "#8aa0bd"],
    "pod-bg": ["#e3f4e8", "#173323"],
    "pod-border": ["#1d7a3a", "#6fd08f"],
    "bug": ["#b3261e", "#ff8a80"],
    "bug-bg": ["#fdecea", "#3a1d1b"],
    "fix": ["#1d7a3a", "#7ee29b"],
    "fix-bg": ["#e6f4ea", "#16301f"],
    "visit": ["#ffd54a", "#b8860b"],
    "qr-bg": ["#ffffff", "#ffffff"],
    "ghost": ["#677080", "#8f99a6"],
    "ring-track": ["#d3d9e1", "#3a4452"],
    "marker": ["#1f5fd1", "#7fb0ff"],
    "walk": ["#d49a00", "#ffcc33"],
    "walk-bg": ["#fff3c4", "#3d3000"],
    "unseen-a": ["#f2dad7", "#3b2222"],
    "unseen-b": ["#fbf1f0", "#291a1a"],
    "warn-bg": ["#fff4e5", "#3a2a10"],
    "line": ["#8884", "#8884"],
    "shade": ["rgba(0,0,0,.12)", "rgba(0,0,0,.5)"],
    "shade-up": ["rgba(0,0,0,.12)", "rgba(0,0,0,.6)"],
    "shade-strong": ["rgba(0,0,0,.18)", "rgba(0,0,0,.6)"],
    "scrim": ["rgba(0,0,0,.45)", "rgba(0,0,0,.45)"],
    "blank": ["#000000", "#000000"]
  },
  "lanes": {"activeQ": 1, "backoffQ": 1, "unschedulablePods": 1.4, "inFlight": 1},
  "chips": {"activeQ": [12, 12, 12, 12], "backoffQ": [3, 3, 3, 3], "unschedulablePods": [0, 0, 0, 0],
    "inFlight": [12, 0, 12, 0]},
  "curve": {"rise": 18, "bend": 0.5, "samples": 64},
  "arrow": {
    "spread": 14, "spreadShare": 0.25, "below": 1.5, "corner": 8, "cornerSteps": 6, "stopShort": 4,
    "line": 2.5, "decidedLine": 3.5, "dash": [7, 5],
    "head": 12, "headPerLine": 5, "headAngle": 0.42, "headAim": 10, "tail": 3.5, "tailPerLine": 1.5,
    "overReach": 2, "aboveLanes": 6, "channelStep": 4
  },
  "route": {"clear": 4, "bend": 40, "down": 3, "near": 14, "crowded": 80, "budget": 20000},
  "type": {"presenting": 16, "embed": 11, "slide": 24, "small": 0.8},
  "cut": {"room": 12, "cross": 9, "gap": 0.1, "maxGap": 20, "bar": 0.08, "maxBar": 15, "barHalf": 9, "step": 0.05,
    "tries": 12, "bent": 0.45},
  "beats": {"per": 450, "hold": 650, "fade": 700}
};
