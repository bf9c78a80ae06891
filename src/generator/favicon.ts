import type { SiteConfig } from "./config.ts";

/** A monogram icon from the brand's first letter, so the site needs no binary image. */
export function faviconSvg(site: SiteConfig): string {
  const letter = site.brand.charAt(0).replace(/[<&>]/g, "");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0b1f33"/><text x="32" y="44" font-family="system-ui,sans-serif" font-size="36" font-weight="700" text-anchor="middle" fill="#f4b942">${letter}</text></svg>`;
}
