/**
 * Decides what a request URL means before any file is looked up. Pure, so the hostile-path corpus can be
 * tested without a server. The static file library never sees a path this function did not accept.
 */
export type RequestPath =
  | { kind: "bad"; reason: string }
  | { kind: "redirect"; location: string }
  | { kind: "path"; pathname: string; search: string };

const ENCODED_SEPARATOR = /%(2f|5c|00)/i;

export function parseRequestPath(rawUrl: string | undefined): RequestPath {
  if (!rawUrl || rawUrl.charCodeAt(0) !== 47 /* "/" */)
    return { kind: "bad", reason: "The request target must be a path." };
  const queryAt = rawUrl.search(/[?#]/);
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const search = queryAt === -1 ? "" : rawUrl.slice(queryAt).split("#")[0];
  // An encoded slash, backslash or NUL can only be an attempt to smuggle a separator past the router.
  if (ENCODED_SEPARATOR.test(rawPath)) return { kind: "bad", reason: "Encoded separators are not allowed." };
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return { kind: "bad", reason: "Malformed percent-encoding." };
  }
  if (/[\u0000-\u001f\u007f\\]/.test(pathname))
    return { kind: "bad", reason: "Control characters and backslashes are not allowed." };
  const segments = pathname.split("/");
  if (segments.some((s) => s === ".." || s === ".")) return { kind: "bad", reason: "Dot segments are not allowed." };
  if (pathname.includes("//"))
    return { kind: "redirect", location: encodePath(pathname.replace(/\/{2,}/g, "/")) + search };

  // Canonical URLs have no trailing slash and no .html: send the old forms to them, keeping the query.
  if (pathname.length > 1 && pathname.endsWith("/"))
    return { kind: "redirect", location: encodePath(pathname.replace(/\/+$/, "") || "/") + search };
  if (pathname.endsWith(".html")) {
    const bare = pathname.slice(0, -".html".length);
    const canonical = bare === "/index" ? "/" : bare.endsWith("/index") ? bare.slice(0, -"/index".length) : bare;
    return { kind: "redirect", location: encodePath(canonical || "/") + search };
  }
  return { kind: "path", pathname, search };
}

function encodePath(pathname: string): string {
  return pathname.split("/").map(encodeURIComponent).join("/");
}

/**
 * Files in dist that are never pages to answer with: instructions for hosts (_headers, _redirects),
 * compressed twins, and whatever sits in a folder whose name starts with "_" or "." (_sitegen/, the
 * configuration and endpoints code `sitegen start` reads), at any depth.
 */
export function isHiddenFile(pathname: string): boolean {
  const name = pathname.slice(pathname.lastIndexOf("/") + 1);
  if (name.endsWith(".br") || name.endsWith(".gz")) return true;
  return pathname.split("/").some((segment) => segment.startsWith("_") || segment.startsWith("."));
}
