/**
 * The signed tokens of the links the site e-mails (the double opt-in's confirmation, the newsletter's
 * unsubscribe): `base64url(JSON).base64url(MAC)`, the MAC an HMAC-SHA-256 under SUBMISSIONS_SECRET (from the
 * environment only). Checked with WebCrypto's verify, which compares in constant time; nothing here needs
 * Node, so the handlers that read them run on edge runtimes too. Each kind of link writes its own fields,
 * and reads only a token with them, so that one kind of link never passes for another.
 */

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** The longest token worth checking: a token is well under this, and nothing larger is worth a MAC. */
export const MAX_TOKEN_LENGTH = 2048;

/** Signs data with one secret, and opens what it signed. */
export class TokenSigner {
  private readonly key: Promise<CryptoKey>;

  constructor(secret: string) {
    this.key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
  }

  async sign(data: Record<string, unknown>): Promise<string> {
    const body = base64url(encoder.encode(JSON.stringify(data)));
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await this.key, encoder.encode(body)));
    return `${body}.${base64url(mac)}`;
  }

  /** The data of a token this secret signed; undefined when it is forged, altered, garbled or too long. */
  async open(token: string): Promise<Record<string, unknown> | undefined> {
    if (token.length > MAX_TOKEN_LENGTH) return undefined;
    const [body, signature, extra] = token.split(".");
    const mac = signature === undefined || extra !== undefined ? undefined : fromBase64url(signature);
    if (!body || !mac || !(await crypto.subtle.verify("HMAC", await this.key, mac, encoder.encode(body))))
      return undefined;
    try {
      const data: unknown = JSON.parse(new TextDecoder().decode(fromBase64url(body)));
      return data !== null && typeof data === "object" && !Array.isArray(data)
        ? (data as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  }
}
