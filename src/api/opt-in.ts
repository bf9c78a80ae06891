/**
 * Double opt-in for the newsletter (submissions.doubleOptIn in site.yaml): a signup is stored unconfirmed and
 * the subscriber gets an e-mail with a signed link; following it confirms the address. Only confirmed
 * addresses are subscribers; the others expire (submissions.unconfirmedDays).
 *
 * The link's token names the address, the visitor's language and an expiry, signed with HMAC-SHA-256 under
 * SUBMISSIONS_SECRET (from the environment only): `base64url(JSON).base64url(MAC)`. It is checked with
 * WebCrypto's verify, which compares in constant time, and nothing here needs Node, so the handler runs on
 * edge runtimes too.
 */
import { localeFromAcceptLanguage, localeFromField, seeOther, textResponse, type ApiLocale } from "./http.ts";
import type { OutboxMessage, SubmissionStore } from "./store.ts";

export interface TokenClaims {
  email: string;
  locale: ApiLocale;
  /** Milliseconds since the epoch after which the link no longer confirms. */
  expires: number;
}

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

/** Signs and checks confirmation tokens with one secret. */
export class OptInTokens {
  private readonly key: Promise<CryptoKey>;

  constructor(secret: string) {
    this.key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
  }

  async sign(claims: TokenClaims): Promise<string> {
    const body = base64url(encoder.encode(JSON.stringify({ e: claims.email, l: claims.locale, x: claims.expires })));
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await this.key, encoder.encode(body)));
    return `${body}.${base64url(mac)}`;
  }

  /** The claims of a token this secret signed, or why not: "invalid" (forged, altered, garbled) or "expired". */
  async verify(
    token: string,
    now: number,
  ): Promise<{ ok: true; claims: TokenClaims } | { ok: false; reason: "invalid" | "expired"; locale?: ApiLocale }> {
    const [body, signature, extra] = token.split(".");
    const mac = signature === undefined || extra !== undefined ? undefined : fromBase64url(signature);
    if (!body || !mac || !(await crypto.subtle.verify("HMAC", await this.key, mac, encoder.encode(body))))
      return { ok: false, reason: "invalid" };
    let data: { e?: unknown; l?: unknown; x?: unknown };
    try {
      data = JSON.parse(new TextDecoder().decode(fromBase64url(body))) as typeof data;
    } catch {
      return { ok: false, reason: "invalid" };
    }
    const locale = localeFromField(data.l);
    if (typeof data.e !== "string" || typeof data.x !== "number" || !locale) return { ok: false, reason: "invalid" };
    if (now > data.x) return { ok: false, reason: "expired", locale };
    return { ok: true, claims: { email: data.e, locale, expires: data.x } };
  }
}

export interface ConfirmHandlerOptions {
  tokens: OptInTokens;
  store: Pick<SubmissionStore, "confirmNewsletter">;
  /** Path prefix of each language's pages: { pt: "", en: "/en" }. */
  localePrefix: Record<ApiLocale, string>;
  /** What to queue when an address is confirmed (the firm's notice of a new subscriber), by its claims. */
  onConfirm: (claims: TokenClaims, at: string) => OutboxMessage[];
  now: () => number;
  /** After the store recorded the confirmation with notifications, so that they go out now. */
  onStored?: () => void;
}

const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

/**
 * GET <endpoints.newsletterConfirm>?token=...: confirms, then 303 to the page that says so in the
 * subscriber's language; a link that is invalid, expired or whose signup has expired goes to the page that
 * says so and invites signing up again. Following a link twice says "confirmed" both times.
 */
export function createConfirmHandler(options: ConfirmHandlerOptions): (request: Request) => Promise<Response> {
  const { tokens, store, localePrefix, now } = options;
  const page = (locale: ApiLocale, name: string) => seeOther(`${localePrefix[locale]}/forms/${name}`, NO_STORE);
  return async (request) => {
    // Only GET confirms: a HEAD (a link checker) must not change anything.
    if (request.method !== "GET") return textResponse(405, "GET\n", { Allow: "GET", ...NO_STORE });
    const fallback = localeFromAcceptLanguage(request.headers.get("accept-language")) ?? "pt";
    let token: string;
    try {
      token = new URL(request.url).searchParams.get("token") ?? "";
    } catch {
      token = "";
    }
    // Bounded: a token is well under this, and nothing larger is worth a MAC.
    if (token === "" || token.length > 2048) return page(fallback, "newsletter-confirm-failed");
    const checked = await tokens.verify(token, now());
    if (!checked.ok) return page(checked.locale ?? fallback, "newsletter-confirm-failed");
    const { claims } = checked;
    const at = new Date(now()).toISOString();
    try {
      const outcome = await store.confirmNewsletter(claims.email, now(), options.onConfirm(claims, at));
      if (outcome === "missing") return page(claims.locale, "newsletter-confirm-failed");
      if (outcome === "confirmed") options.onStored?.();
      return page(claims.locale, "newsletter-confirmed");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      console.error(`sitegen: could not confirm a newsletter subscription: ${reason}`);
      return seeOther(`${localePrefix[claims.locale]}/forms/error?reason=unavailable`, {
        ...NO_STORE,
        "Retry-After": "60",
      });
    }
  };
}
