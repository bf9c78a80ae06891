/** Spec §9: cookies the product sets live 365 days, on path /, SameSite Lax; Secure whenever the page is https. */
export interface CookieOptions {
  days?: number;
  path?: string;
  sameSite?: "Lax" | "Strict" | "None";
  secure?: boolean;
}

export function cookieString(
  name: string,
  value: string,
  options: CookieOptions = {},
  https = typeof location !== "undefined" && location.protocol === "https:",
): string {
  const { days = 365, path = "/", sameSite = "Lax" } = options;
  const secure = options.secure ?? (https || sameSite === "None");
  const expires = new Date(Date.now() + days * 24 * 60 * 60 * 1000).toUTCString();
  const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  const attributes = `Expires=${expires}; Max-Age=${Math.round(days * 86400)}; Path=${path}; SameSite=${sameSite}`;
  return `${pair}; ${attributes}${secure ? "; Secure" : ""}`;
}

export function setCookie(name: string, value: string, options?: CookieOptions): void {
  document.cookie = cookieString(name, value, options);
}

export function getCookie(name: string): string | undefined {
  const prefix = `${encodeURIComponent(name)}=`;
  const found = document.cookie.split("; ").find((c) => c.startsWith(prefix));
  return found === undefined ? undefined : decodeURIComponent(found.slice(prefix.length));
}

export function deleteCookie(name: string, path = "/"): void {
  document.cookie = `${encodeURIComponent(name)}=; Max-Age=0; Path=${path}; SameSite=Lax`;
}
