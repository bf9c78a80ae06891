import type { SiteConfig } from "./config.ts";

/** Origins (or 'self') the forms and the language detection talk to, from site.yaml's endpoints. */
function endpointSources(site: SiteConfig): string[] {
  const sources = new Set<string>(["'self'"]);
  for (const endpoint of Object.values(site.endpoints)) {
    if (/^https?:\/\//i.test(endpoint)) sources.add(new URL(endpoint).origin);
  }
  return [...sources];
}

/**
 * The Content-Security-Policy: no inline script (JSON-LD is data, not script, so it needs no exception),
 * and connect-src/form-action follow the configured endpoints, so pointing a form elsewhere needs no other
 * change. Inline style attributes are allowed for islands that position tooltips and toasts.
 */
export function contentSecurityPolicy(site: SiteConfig): string {
  const endpoints = endpointSources(site).join(" ");
  return [
    "default-src 'self'",
    // Speculation Rules (prefetch of pages the visitor is about to open) are JSON, not script; CSP still needs this
    // keyword for them.
    "script-src 'self' 'inline-speculation-rules'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${endpoints}`,
    `form-action ${endpoints}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** Headers sent with every response by `sitegen serve`, and written to dist/_headers for hosts that read it. */
export function securityHeaders(site: SiteConfig): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(site),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    // No other site may embed these pages, images or answers (a CORS request to an endpoint is not affected).
    "Cross-Origin-Resource-Policy": "same-origin",
  };
}

export const HTML_CACHE = "no-cache";
export const ASSET_CACHE = "public, max-age=31536000, immutable";

/**
 * dist/_headers (Netlify, Cloudflare Pages): security headers everywhere, long cache for hashed assets.
 * dist/_redirects, for Netlify: an unknown address under a locale's prefix answers that locale's
 * not-found page with 404 (the root 404.html covers the default locale); Netlify applies such a rule
 * only when no file matches, so real pages are unaffected. Cloudflare Pages needs no rule (it serves the
 * nearest 404.html up the tree) and ignores these, since its _redirects takes only redirect and 200 codes.
 */
export function hostFiles(site: SiteConfig): { headers: string; redirects: string } {
  const lines = [
    "/*",
    ...Object.entries(securityHeaders(site)).map(([k, v]) => `  ${k}: ${v}`),
    "",
    "/assets/*",
    `  Cache-Control: ${ASSET_CACHE}`,
    "",
  ];
  const prefixed = site.locales.filter((l) => l.prefix);
  return {
    headers: lines.join("\n"),
    redirects: prefixed.map((l) => `${l.prefix}/*  ${l.prefix}/404.html  404\n`).join(""),
  };
}
