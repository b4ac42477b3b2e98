// What a session's commands accept and the sentences a refused one is answered with, made from
// webapp/engine/rules.py by `python -m tools.clientgen`: edit them there.
export const RULES = {
  "minSpeed": 0.25,
  "maxSpeed": 20.0,
  "sentences": {
    "speed": "speed must be a number of steps per second in 0.25..20.0, got {got}",
    "position": "position must be an integer in {lo}..{hi}, got {got}",
    "range": "range must be [from, to] with 0 <= from <= to <= {total}, got {got}",
    "notLoaded": "no scenario loaded: send 'load' first",
    "payload": "'{event}' expects an object payload"
  }
};
