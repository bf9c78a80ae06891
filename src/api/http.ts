/**
 * Web-standard helpers shared by the built-in handlers: language and content negotiation, a bounded body
 * reader and response builders. Nothing here touches Node APIs, so the handlers run on edge runtimes too.
 */

export type ApiLocale = "pt" | "en";
export type Messages = Record<ApiLocale, Map<string, string>>;

export const JSON_TYPE = "application/json; charset=utf-8";
const TEXT_TYPE = "text/plain; charset=utf-8";

/** The text of a dotted key; a missing translation shows the key itself (spec §8). */
export function message(messages: Messages, locale: ApiLocale, key: string): string {
  return messages[locale]?.get(key) ?? key;
}

interface Weighted {
  value: string;
  q: number;
}

/** `a;q=0.5, b` → [{a, 0.5}, {b, 1}], lower-cased, in header order; entries with q=0 are kept (callers decide). */
function parseWeighted(header: string | null): Weighted[] {
  if (!header) return [];
  const out: Weighted[] = [];
  for (const part of header.split(",")) {
    const [rawValue, ...params] = part.split(";");
    const value = rawValue.trim().toLowerCase();
    if (!value) continue;
    let q = 1;
    for (const param of params) {
      const [name, raw] = param.split("=").map((s) => s.trim());
      if (name.toLowerCase() === "q") {
        const n = Number(raw);
        q = raw !== undefined && raw !== "" && Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 1;
      }
    }
    out.push({ value, q });
  }
  return out;
}

/**
 * The browser-language rule of spec §4, applied to Accept-Language: Portuguese if any accepted language
 * (q > 0) starts with pt or carries the region BR (pt-BR, en-BR), English otherwise. `undefined` when the
 * header names no language at all (absent, empty or only `*`), so each caller picks its own default.
 */
export function localeFromAcceptLanguage(header: string | null): ApiLocale | undefined {
  const languages = parseWeighted(header).filter((l) => l.q > 0 && l.value !== "*");
  if (languages.length === 0) return undefined;
  const portuguese = languages.some((l) => {
    const subtags = l.value.split(/[-_]/);
    return subtags[0] === "pt" || subtags.slice(1).includes("br");
  });
  return portuguese ? "pt" : "en";
}

/** A `locale` value from a form body: "pt" / "en" (or a tag such as pt-BR); anything else is ignored. */
export function localeFromField(value: unknown): ApiLocale | undefined {
  if (typeof value !== "string") return undefined;
  const primary = value.trim().toLowerCase().split(/[-_]/)[0];
  return primary === "pt" || primary === "en" ? primary : undefined;
}

/**
 * The language of the page a form was posted from, by a same-origin Referer: the locale whose path prefix
 * it starts with (the unprefixed locale otherwise). Used when the body cannot tell (too large, unreadable).
 */
export function localeFromReferer(request: Request, localePrefix: Record<ApiLocale, string>): ApiLocale | undefined {
  const referer = request.headers.get("referer");
  if (!referer) return undefined;
  let from: URL;
  try {
    from = new URL(referer);
    if (from.origin !== new URL(request.url).origin) return undefined;
  } catch {
    return undefined;
  }
  const entries = Object.entries(localePrefix) as [ApiLocale, string][];
  const prefixed = entries.find(
    ([, prefix]) => prefix !== "" && (from.pathname === prefix || from.pathname.startsWith(`${prefix}/`)),
  );
  return prefixed?.[0] ?? entries.find(([, prefix]) => prefix === "")?.[0];
}

export type BodyKind = "json" | "form" | "other" | "none";

/** The media type of the request body, by its Content-Type. */
export function bodyKind(request: Request): BodyKind {
  const header = request.headers.get("content-type");
  if (!header) return "none";
  const type = header.split(";")[0].trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  return "other";
}

/**
 * Whether to answer with JSON (the island's fetch) or with a redirect (a plain HTML form post). An explicit
 * preference in Accept decides; without one (no Accept, or only wildcards) a JSON body means a script and
 * anything else a form, since an HTML form cannot send JSON.
 */
export function wantsJson(request: Request): boolean {
  const accepted = parseWeighted(request.headers.get("accept"));
  const q = (types: string[]) => Math.max(0, ...accepted.filter((a) => types.includes(a.value)).map((a) => a.q));
  const json = q(["application/json"]);
  const html = q(["text/html", "application/xhtml+xml"]);
  if (json > 0 && json >= html) return true;
  if (html > 0) return false;
  return bodyKind(request) !== "form";
}

export type BodyResult = { ok: true; bytes: Uint8Array } | { ok: false; reason: "too-large" | "unreadable" };

/**
 * Reads at most `limit` bytes: a declared Content-Length over the limit is refused before reading, and a
 * body that turns out larger (chunked, or a lying header) is refused as soon as it crosses the limit. What
 * is left unread is the server's to drain (see runApi in src/server/run-api.ts). A stream that fails with
 * a RangeError is a server's own cap (as `sitegen serve` sets one): too large as well; any other failure
 * (the client went away) is "unreadable".
 */
export async function readBody(request: Request, limit: number): Promise<BodyResult> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > limit)
    return { ok: false, reason: "too-large" };
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      return { ok: false, reason: error instanceof RangeError ? "too-large" : "unreadable" };
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: "too-large" };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": JSON_TYPE, ...headers } });
}

export function textResponse(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { "Content-Type": TEXT_TYPE, ...headers } });
}

/** 303 See Other to a path on this site: the browser follows it with a GET. */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(`See ${location}\n`, {
    status: 303,
    headers: { Location: location, "Content-Type": TEXT_TYPE, ...headers },
  });
}
