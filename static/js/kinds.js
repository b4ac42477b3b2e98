// The error kinds the page tells apart, made from webapp/errors.py (CLIENT_KINDS) by
// `python -m tools.clientgen`: edit them there.
export const KINDS = {
  "NOT_LOADED": "NotLoaded",
  "NOT_ALLOWED": "NotAllowed",
  "UNOPENABLE": [
    "ScenarioError",
    "Invalid",
    "TooLarge"
  ]
};
