// The error kinds the page tells apart, made from webapp/errors.py (CLIENT_KINDS) by
// `python -m tools.clientgen`: edit them there.
export const KINDS = {
  "NOT_LOADED": "NotLoaded",
  "UNOPENABLE": [
    "ScenarioError",
    "Invalid",
    "TooLarge"
  ]
};
