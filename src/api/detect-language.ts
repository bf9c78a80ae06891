/**
 * GET /api/detect-language → {"language":"pt"|"en"}: the language the home page redirects to on a first
 * visit (spec §4). A CDN's country header decides when present (Portuguese-speaking countries → pt);
 * otherwise the browser-language rule of spec §4 is applied to Accept-Language; with neither, English.
 */
import { jsonResponse, localeFromAcceptLanguage, message, type ApiLocale, type Messages } from "./http.ts";

/** Country headers set by CDNs and hosts, most common first. */
export const COUNTRY_HEADERS = [
  "cf-ipcountry",
  "cloudfront-viewer-country",
  "x-vercel-ip-country",
  "x-country-code",
  "fastly-geo-country-code",
  "x-appengine-country",
  "x-azure-clientipcountry",
  "x-geo-country",
] as const;

/** Brazil and the other countries where Portuguese is an official language. */
export const PORTUGUESE_COUNTRIES: ReadonlySet<string> = new Set([
  "BR",
  "PT",
  "AO",
  "MZ",
  "CV",
  "GW",
  "ST",
  "TL",
  "GQ",
  "MO",
]);

/** Placeholders CDNs send when they do not know the country (XX unknown, T1 Tor, ZZ, EU/AP continents). */
const UNKNOWN_COUNTRIES = new Set(["XX", "ZZ", "EU", "AP"]);

/** The visitor's country from the first CDN header holding a real ISO 3166 code, upper-cased. */
export function countryOf(headers: Headers): string | undefined {
  for (const name of COUNTRY_HEADERS) {
    const value = headers.get(name)?.split(",")[0]?.trim().toUpperCase();
    if (value && /^[A-Z]{2}$/.test(value) && !UNKNOWN_COUNTRIES.has(value)) return value;
  }
  return undefined;
}

export function detectLanguage(headers: Headers): ApiLocale {
  const country = countryOf(headers);
  if (country) return PORTUGUESE_COUNTRIES.has(country) ? "pt" : "en";
  return localeFromAcceptLanguage(headers.get("accept-language")) ?? "en";
}

export function createDetectLanguageHandler(messages: Messages): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      const locale = localeFromAcceptLanguage(request.headers.get("accept-language")) ?? "pt";
      return jsonResponse(
        405,
        { ok: false, message: message(messages, locale, "api.method") },
        { Allow: "GET, HEAD", "Cache-Control": "no-store" },
      );
    }
    return jsonResponse(
      200,
      { language: detectLanguage(request.headers) },
      { "Cache-Control": "private, max-age=300", Vary: "Accept-Language, CF-IPCountry" },
    );
  };
}
