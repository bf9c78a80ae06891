import type { IncomingMessage, ServerResponse } from "node:http";
import { open, type FileHandle } from "node:fs/promises";
import type { Stats } from "node:fs";
import { extname, join, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { ASSET_CACHE, HTML_CACHE } from "../generator/security-headers.ts";
import { evaluatePreconditions } from "./preconditions.ts";

/**
 * Files of dist/ for GET and HEAD. Every request looks its file up afresh, because dist/ may be replaced by a
 * rebuild or a deploy at any moment: what is gone answers 404, what is new is served. The file is opened
 * before anything is decided and then read through that descriptor, so a file that leaves dist/ after the
 * lookup is still sent whole, and one that is gone before it is simply not found.
 *
 * The caller has already vetted the path (request-path.ts: no dot segments, separators or control
 * characters) and keeps hidden files and internal pages away; this module adds the HTTP of serving a file:
 * precompressed twins chosen by Accept-Encoding q-values, validators, 304 and 412, byte ranges (RFC 9110 §14),
 * cache policies and types.
 */
export type Coding = "br" | "gzip" | "identity";

const TWIN_SUFFIX = { br: ".br", gzip: ".gz" } as const;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".pdf": "application/pdf",
};

export function contentType(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? "application/octet-stream";
}

/**
 * Hashed assets are kept for a year, pages are checked on every visit, anything else (robots.txt, the favicon) for an
 * hour.
 */
export function cachePolicy(pathname: string, file: string): string {
  if (pathname.startsWith("/assets/")) return ASSET_CACHE;
  return file.endsWith(".html") ? HTML_CACHE : "public, max-age=3600";
}

/**
 * The codings a client accepts, best first (RFC 9110 §12.5.3): q-values parsed, a coding named with q=0
 * refused, `*` standing for the codings not named, `x-gzip` as gzip, brotli before gzip before identity when
 * equally preferred. Identity is acceptable unless refused. When nothing is acceptable, identity is returned
 * anyway: the header is disregarded rather than answered with 406, as §12.1 allows.
 */
export function acceptedCodings(header: string | string[] | undefined): Coding[] {
  if (header === undefined) return ["identity"];
  const named = new Map<string, number>();
  for (const entry of String(header).split(",")) {
    const [name, ...params] = entry.split(";").map((part) => part.trim());
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*(\S+)$/i.exec(param);
      // A weight that is not a number in 0..1 (at most three decimals) makes the entry meaningless: skip it.
      if (match) q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(match[1]) ? Number(match[1]) : NaN;
    }
    if (Number.isNaN(q)) continue;
    const coding = name.toLowerCase() === "x-gzip" ? "gzip" : name.toLowerCase();
    named.set(coding, Math.max(q, named.get(coding) ?? 0));
  }
  const any = named.get("*");
  // Identity not named is acceptable but least preferred, so a client that names a coding gets it.
  const weight = (coding: Coding) => named.get(coding) ?? any ?? (coding === "identity" ? 0.001 : 0);
  const order: Coding[] = ["br", "gzip", "identity"];
  const accepted = order.filter((coding) => weight(coding) > 0).sort((a, b) => weight(b) - weight(a));
  return accepted.length > 0 ? accepted : ["identity"];
}

export type ByteRange = { start: number; end: number };

/**
 * One Range header against a representation of `size` bytes (RFC 9110 §14.1.1, §14.2): a byte range, or
 * "unsatisfiable" (416), or undefined when the header is to be ignored and the whole file sent: another unit,
 * invalid syntax (including a last position before the first), or several ranges, which a server may answer
 * whole rather than as multipart.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | undefined {
  const match = /^bytes=(\d*)-(\d*)$/i.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  // An empty file has no bytes to point at; send it whole.
  if (size === 0) return undefined;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const last = match[2] === "" ? Infinity : Number(match[2]);
  if (last < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end: Math.min(last, size - 1) };
}

/** A strong validator from size and modification time, distinct for each coding of the same file. */
function entityTag(stats: Stats, coding: Coding): string {
  const tag = `${stats.size.toString(36)}-${Math.round(stats.mtimeMs * 1000).toString(36)}`;
  return `"${coding === "identity" ? tag : `${tag}-${coding}`}"`;
}

/** If-Range (RFC 9110 §13.1.5): the range applies only if the validator is still current, compared strongly. */
function rangeStillValid(ifRange: string | string[] | undefined, etag: string, stats: Stats): boolean {
  if (ifRange === undefined) return true;
  const value = String(ifRange).trim();
  if (value.startsWith('"') || value.startsWith("W/")) return value === etag && !etag.startsWith("W/");
  const date = Date.parse(value);
  return !Number.isNaN(date) && date === Math.floor(stats.mtimeMs / 1000) * 1000;
}

/** Errors of open() that mean "there is no such file here". Anything else (EACCES, EMFILE) is a real failure. */
const ABSENT = new Set(["ENOENT", "ENOTDIR", "EISDIR", "ENAMETOOLONG", "ELOOP"]);

/** Opens a regular file, or returns undefined if there is none at that path (now). */
async function openFile(path: string): Promise<{ handle: FileHandle; stats: Stats } | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return undefined;
}

/**
 * Returns a handler that answers a GET or HEAD for `pathname` from `root`, or resolves false, having sent
 * nothing, when there is no such file (the caller answers with its not-found page).
 */
export function staticFiles(root: string) {
  const inside = root.endsWith(sep) ? root : root + sep;

  /** Flat pages: /about is about.html, / is index.html; a file named exactly as asked comes first. */
  function candidates(pathname: string): string[] {
    if (pathname === "/") return [join(root, "index.html")];
    const exact = join(root, pathname);
    if (!exact.startsWith(inside)) return [];
    return [exact, `${exact}.html`];
  }

  return async function serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    let found: { handle: FileHandle; stats: Stats } | undefined;
    let file = "";
    // Candidates are tried in turn, each opened, so that a lookup is always of the dist/ there is now.
    for (const candidate of candidates(pathname)) {
      found = await openFile(candidate);
      if (found) {
        file = candidate;
        break;
      }
    }
    if (!found) return false;

    let { handle, stats } = found;
    let coding: Coding = "identity";
    let streaming = false;
    try {
      // Byte ranges count bytes of the file itself, so a GET with a Range gets the uncompressed file.
      const rangeHeader = req.method === "GET" ? req.headers.range : undefined;
      if (rangeHeader === undefined) {
        for (const accepted of acceptedCodings(req.headers["accept-encoding"])) {
          if (accepted === "identity") break;
          const twin = await openFile(file + TWIN_SUFFIX[accepted]);
          if (twin) {
            const identity = handle;
            ({ handle, stats } = twin);
            coding = accepted;
            await identity.close();
            break;
          }
        }
      }
      const etag = entityTag(stats, coding);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("Cache-Control", cachePolicy(pathname, file));
      res.setHeader("ETag", etag);
      res.setHeader("Last-Modified", stats.mtime.toUTCString());
      res.setHeader("Accept-Ranges", "bytes");

      // The preconditions come before Range (RFC 9110 §13.2.2).
      const precondition = evaluatePreconditions(req.headers, { etag, modifiedMs: stats.mtimeMs });
      if (precondition === 412) {
        res.writeHead(412, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : "Precondition failed");
        return true;
      }
      if (precondition === 304) {
        res.writeHead(304);
        res.end();
        return true;
      }

      const range =
        rangeHeader !== undefined && rangeStillValid(req.headers["if-range"], etag, stats)
          ? parseRange(rangeHeader, stats.size)
          : undefined;
      if (range === "unsatisfiable") {
        res.writeHead(416, { "Content-Range": `bytes */${stats.size}`, "Content-Type": "text/plain; charset=utf-8" });
        res.end("Range not satisfiable");
        return true;
      }
      const { start, end } = range ?? { start: 0, end: stats.size - 1 };
      res.writeHead(range ? 206 : 200, {
        "Content-Type": contentType(file),
        "Content-Length": end - start + 1,
        ...(range ? { "Content-Range": `bytes ${start}-${end}/${stats.size}` } : {}),
        ...(coding !== "identity" ? { "Content-Encoding": coding } : {}),
      });
      if (req.method === "HEAD" || end < start) {
        res.end();
        return true;
      }
      const length = end - start + 1;
      // The stream owns the descriptor from here and closes it at the end, on error or when the client leaves.
      const stream = handle.createReadStream({ start, end });
      streaming = true;
      await pipeline(
        stream,
        // A file truncated in place (a deploy copying over it) ends early; ending the answer short would leave
        // the client waiting for bytes that never come, so the error closes the connection instead.
        async function* (source: AsyncIterable<Buffer>) {
          let sent = 0;
          for await (const chunk of source) {
            sent += chunk.byteLength;
            yield chunk;
          }
          if (sent < length) throw Object.assign(new Error(`${file} shrank while being sent`), { code: "ESHORTREAD" });
        },
        res,
      ).catch((error: NodeJS.ErrnoException) => {
        // A client that goes away mid-answer, or a file changed under us, is not a server failure; anything
        // else the caller logs. Either way pipeline has closed the connection, as the status line is out.
        if (error.code !== "ERR_STREAM_PREMATURE_CLOSE" && error.code !== "ESHORTREAD") throw error;
      });
      return true;
    } finally {
      if (!streaming) await handle.close();
    }
  };
}
