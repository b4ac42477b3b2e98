// The error kinds the page tells apart, made from webapp/errors.py (CLIENT_KINDS) by
// `python -m webapp.errors > static/js/kinds.js`: edit them there.
export const KINDS = {
  "NOT_LOADED": "NotLoaded",
  "UNOPENABLE": [
    "ScenarioError",
    "Invalid",
    "TooLarge"
  ]
};
