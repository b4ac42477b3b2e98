// Permalinks: every view state is a URL. Inline scenarios travel compressed (deflate-raw, base64url).
const b64url = {
  encode(bytes) {
    let s = "";
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  },
  decode(text) {
    const s = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  },
};

async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

export async function encodeScenario(obj) {
  return b64url.encode(await pipe(new TextEncoder().encode(JSON.stringify(obj)), new CompressionStream("deflate-raw")));
}

export async function decodeScenario(text) {
  return JSON.parse(new TextDecoder().decode(await pipe(b64url.decode(text), new DecompressionStream("deflate-raw"))));
}

// `source` is a built-in id (string) or a scenario object.
// `versions`: the versions side by side, written as `versions=a,b` (null or absent: the default pair).
export async function permalink(source, { position, versions, theme }, base = location) {
  const url = new URL("/", base.href);
  if (typeof source === "string") url.searchParams.set("scenario", source);
  else url.searchParams.set("inline", await encodeScenario(source));
  if (position) url.searchParams.set("position", String(position));
  if (versions?.length) url.searchParams.set("versions", versions.join(","));
  if (theme && theme !== "auto") url.searchParams.set("theme", theme);
  return url.href.replaceAll("%2C", ","); // version names need no escaping: a readable list
}
