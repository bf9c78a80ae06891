/**
 * Double opt-in for the newsletter (submissions.doubleOptIn in site.yaml): a signup is stored unconfirmed and
 * the subscriber gets an e-mail with a signed link; following it confirms the address. Only confirmed
 * addresses are subscribers; the others expire (submissions.unconfirmedDays).
 *
 * The link's token names the address, the visitor's language and an expiry, signed with HMAC-SHA-256 under
 * SUBMISSIONS_SECRET (signed-tokens.ts). Nothing here needs Node, so the handler runs on edge runtimes too.
 */
import { localeFromAcceptLanguage, localeFromField, seeOther, textResponse, type ApiLocale } from "./http.ts";
import { MAX_TOKEN_LENGTH, TokenSigner } from "./signed-tokens.ts";
import type { OutboxMessage, SubmissionStore } from "./store.ts";

export interface TokenClaims {
  email: string;
  locale: ApiLocale;
  /** Milliseconds since the epoch after which the link no longer confirms. */
  expires: number;
}

/** Signs and checks confirmation tokens with one secret: { e: address, l: locale, x: expiry } (signed-tokens.ts). */
export class OptInTokens {
  private readonly signer: TokenSigner;

  constructor(secret: string) {
    this.signer = new TokenSigner(secret);
  }

  sign(claims: TokenClaims): Promise<string> {
    return this.signer.sign({ e: claims.email, l: claims.locale, x: claims.expires });
  }

  /** The claims of a token this secret signed, or why not: "invalid" (forged, altered, garbled) or "expired". */
  async verify(
    token: string,
    now: number,
  ): Promise<{ ok: true; claims: TokenClaims } | { ok: false; reason: "invalid" | "expired"; locale?: ApiLocale }> {
    const data = await this.signer.open(token);
    const locale = localeFromField(data?.l);
    // Another kind of link (an unsubscribe link names its purpose) never confirms.
    if (!data || typeof data.e !== "string" || typeof data.x !== "number" || !locale || "p" in data)
      return { ok: false, reason: "invalid" };
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
    if (token === "" || token.length > MAX_TOKEN_LENGTH) return page(fallback, "newsletter-confirm-failed");
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
