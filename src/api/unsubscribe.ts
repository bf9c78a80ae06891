/**
 * Leaving the newsletter: every issue carries a personal link, <endpoints.newsletterUnsubscribe>?token=...,
 * whose token names the address and its language, signed under SUBMISSIONS_SECRET (signed-tokens.ts) and
 * never expiring. The same link is the List-Unsubscribe header (RFC 2369) and its one-click target
 * (RFC 8058).
 *
 * - GET (a person following the link, or a mail scanner) changes nothing: a page in the subscriber's language
 *   with one button, a plain form that posts back to the link, so it works without JavaScript.
 * - POST unsubscribes at once: the subscription is erased with everything queued for it (store.unsubscribe),
 *   so no issue reaches the address after it, not even from a send in progress. A mail client's one-click
 *   POST gets 200; the page's form gets 303 to the page that confirms it and offers to subscribe again.
 * - A forged, altered or unknown token changes nothing and leads to a page that says so.
 *
 * Web-standard only: the handler runs under sitegen serve and start, and on edge runtimes.
 */
import { message, seeOther, textResponse, type ApiLocale, type Messages } from "./http.ts";
import { localeFromField, localeFromAcceptLanguage } from "./http.ts";
import { MAX_TOKEN_LENGTH, TokenSigner } from "./signed-tokens.ts";
import type { SubmissionStore } from "./store.ts";

/** The purpose an unsubscribe token names, so that no other kind of link passes for one. */
const PURPOSE = "unsubscribe";

export interface Subscriber {
  email: string;
  locale: ApiLocale;
}

/** Signs and checks unsubscribe tokens with one secret: { p: "unsubscribe", e: address, l: locale }. */
export class UnsubscribeTokens {
  private readonly signer: TokenSigner;

  constructor(secret: string) {
    this.signer = new TokenSigner(secret);
  }

  sign(subscriber: Subscriber): Promise<string> {
    return this.signer.sign({ p: PURPOSE, e: subscriber.email, l: subscriber.locale });
  }

  /** The subscriber a token this secret signed names, or undefined. */
  async verify(token: string): Promise<Subscriber | undefined> {
    const data = await this.signer.open(token);
    const locale = localeFromField(data?.l);
    if (!data || data.p !== PURPOSE || typeof data.e !== "string" || !locale) return undefined;
    return { email: data.e, locale };
  }
}

/** A subscriber's unsubscribe link on the site. */
export async function unsubscribeLink(
  siteUrl: string,
  path: string,
  tokens: UnsubscribeTokens,
  subscriber: Subscriber,
): Promise<string> {
  return `${siteUrl}${path}?token=${await tokens.sign(subscriber)}`;
}

export interface UnsubscribeHandlerOptions {
  tokens: UnsubscribeTokens;
  store: Pick<SubmissionStore, "unsubscribe" | "findByEmail">;
  messages: Messages;
  /** Path prefix of each language's pages: { pt: "", en: "/en" }. */
  localePrefix: Record<ApiLocale, string>;
  /** Each language's tag (pt-BR, en), for the page's lang. */
  lang: Record<ApiLocale, string>;
  /** Told once an address has left (after the store committed it). */
  onUnsubscribed?: () => void;
}

const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
/** The query parameter the page's form adds, so that its POST is answered with a page rather than 200. */
const FROM_PAGE = "page";

/** The page's whole style, allowed by its hash in the page's Content-Security-Policy. */
const STYLE = `
body{margin:0;background:#f3f6f9;color:#14202e;
font:16px/1.5 "Inter Variable",Inter,"Segoe UI",Helvetica,Arial,sans-serif}
main{max-width:36rem;margin:3rem auto;padding:2rem 1.5rem;background:#fff;border-radius:10px}
h1{font-size:1.75rem;line-height:1.25;margin:0 0 1rem}
p{margin:0 0 1rem}
button{font:inherit;font-weight:600;color:#0b1f33;background:#14a593;
border:0;border-radius:6px;padding:.75rem 1.25rem;cursor:pointer}
button:hover{background:#5fd3c3}
a{color:#0b5c8c}
:focus-visible{outline:3px solid #c2410c;outline-offset:2px}
`.trim();

let styleHash: Promise<string> | undefined;
function hashOfStyle(): Promise<string> {
  styleHash ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(STYLE)).then((digest) => {
    let binary = "";
    for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
    return `'sha256-${btoa(binary)}'`;
  });
  return styleHash;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The page a GET shows: what leaving means, and one button that posts back to the link. */
async function confirmationPage(
  options: UnsubscribeHandlerOptions,
  subscriber: Subscriber,
  action: string,
): Promise<Response> {
  const { locale } = subscriber;
  const t = (key: string) => escapeHtml(message(options.messages, locale, `newsletterUnsubscribe.${key}`));
  const home = options.localePrefix[locale] || "/";
  const body = t("message").replace("{unsubscribe.email}", `<strong>${escapeHtml(subscriber.email)}</strong>`);
  const html = `<!doctype html>
<html lang="${escapeHtml(options.lang[locale])}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${t("title")}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${t("title")}</h1>
<p>${body}</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<p><button type="submit">${t("button")}</button></p>
</form>
<p>${t("keep")}</p>
<p><a href="${escapeHtml(home)}">${t("back")}</a></p>
</main>
</body>
</html>
`;
  const csp =
    `default-src 'none'; style-src ${await hashOfStyle()}; form-action 'self'; ` +
    "base-uri 'none'; frame-ancestors 'none'";
  return new Response(html, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": csp,
      "X-Content-Type-Options": "nosniff",
      ...NO_STORE,
    },
  });
}

export function createUnsubscribeHandler(options: UnsubscribeHandlerOptions): (request: Request) => Promise<Response> {
  const { tokens, store, localePrefix } = options;
  const page = (locale: ApiLocale, name: string) => seeOther(`${localePrefix[locale]}/forms/${name}`, NO_STORE);
  return async (request) => {
    const method = request.method;
    if (method !== "GET" && method !== "HEAD" && method !== "POST")
      return textResponse(405, "GET, POST\n", { Allow: "GET, HEAD, POST", ...NO_STORE });
    const url = new URL(request.url);
    const token = url.searchParams.get("token") ?? "";
    const fromPage = url.searchParams.has(FROM_PAGE);
    const fallback = localeFromAcceptLanguage(request.headers.get("accept-language")) ?? "pt";
    const subscriber = token && token.length <= MAX_TOKEN_LENGTH ? await tokens.verify(token) : undefined;
    if (!subscriber) {
      // A mail client's one-click POST is told plainly; a person is shown the page that says so.
      if (method === "POST" && !fromPage) return textResponse(400, "This unsubscribe link is not valid.\n", NO_STORE);
      return page(fallback, "newsletter-unsubscribe-failed");
    }
    try {
      if (method !== "POST") {
        const subscribed = (await store.findByEmail(subscriber.email)).newsletter.length > 0;
        if (!subscribed) return page(subscriber.locale, "newsletter-unsubscribe-failed");
        const action = `${url.pathname}?token=${encodeURIComponent(token)}&${FROM_PAGE}`;
        const response = await confirmationPage(options, subscriber, action);
        return method === "HEAD" ? new Response(null, { status: 200, headers: response.headers }) : response;
      }
      // Leaving twice is no error: the address is not on the list either way.
      if ((await store.unsubscribe(subscriber.email)) === "removed") options.onUnsubscribed?.();
      return fromPage
        ? page(subscriber.locale, "newsletter-unsubscribed")
        : textResponse(200, "Unsubscribed.\n", NO_STORE);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      console.error(`sitegen: could not unsubscribe from the newsletter: ${reason}`);
      const headers = { ...NO_STORE, "Retry-After": "60" };
      if (method === "POST" && !fromPage) return textResponse(503, "Try again later.\n", headers);
      return seeOther(`${localePrefix[subscriber.locale]}/forms/error?reason=unavailable`, headers);
    }
  };
}
