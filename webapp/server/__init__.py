"""The server around the app: settings, the JSON codec, the screen in front of every Socket.IO handler, rate
limits, offloaded work, hosts, origins and security headers (docs/server.md). It imports nothing of the app
(webapp/web); the app imports it."""
