/**
 * Requests that the CLI signs for the site's own endpoints (`sitegen newsletter send --site`): an
 * HMAC-SHA-256 under SUBMISSIONS_SECRET over the method, the path, a timestamp and the SHA-256 of the body,
 * sent as two headers. The endpoint takes a request only when the timestamp is within five minutes of its
 * clock and the MAC verifies (WebCrypto's verify compares in constant time), so an altered method, path,
 * time or body, or a request signed with another secret, is refused. Web-standard: it runs on every host.
 */

export const TIMESTAMP_HEADER = "x-sitegen-timestamp";
export const SIGNATURE_HEADER = "x-sitegen-signature";
/** How far the request's timestamp may be from the endpoint's clock, either way. */
export const MAX_SKEW_MS = 5 * 60_000;

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

async function keyOf(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
}

/** What the MAC covers: one line each, the body by its digest. */
async function signedText(method: string, path: string, timestamp: string, body: Uint8Array): Promise<Uint8Array> {
  const digest = hex(await crypto.subtle.digest("SHA-256", body as Uint8Array<ArrayBuffer>));
  return encoder.encode(`${method.toUpperCase()}\n${path}\n${timestamp}\n${digest}`);
}

/** The headers that sign a request of `method` to `path` (with its query) carrying `body`. */
export async function signRequest(
  secret: string,
  method: string,
  path: string,
  body: string,
  now: number,
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(now / 1000));
  const text = await signedText(method, path, timestamp, encoder.encode(body));
  const mac = await crypto.subtle.sign("HMAC", await keyOf(secret), text as Uint8Array<ArrayBuffer>);
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: hex(mac) };
}

/** Whether `request`, whose body was read as `body`, was signed with `secret` within MAX_SKEW_MS of `now`. */
export async function verifyRequest(secret: string, request: Request, body: Uint8Array, now: number): Promise<boolean> {
  const timestamp = request.headers.get(TIMESTAMP_HEADER) ?? "";
  const signature = request.headers.get(SIGNATURE_HEADER) ?? "";
  if (!/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) return false;
  if (Math.abs(Number(timestamp) * 1000 - now) > MAX_SKEW_MS) return false;
  const url = new URL(request.url);
  const mac = Uint8Array.from(signature.match(/../g)!, (pair) => parseInt(pair, 16));
  const text = await signedText(request.method, url.pathname + url.search, timestamp, body);
  return crypto.subtle.verify("HMAC", await keyOf(secret), mac, text as Uint8Array<ArrayBuffer>);
}
