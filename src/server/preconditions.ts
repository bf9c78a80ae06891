/**
 * The conditional requests of RFC 9110 §13 for a file about to be sent with 200: If-Match, then
 * If-Unmodified-Since when there is no If-Match, then If-None-Match, then If-Modified-Since when there
 * is no If-None-Match (§13.2.2). The caller evaluates them only when the answer would otherwise be 2xx.
 */
import type { IncomingHttpHeaders } from "node:http";

export interface Validators {
  etag: string;
  /** Modification time in milliseconds (Last-Modified has whole seconds), when the answer has one. */
  modifiedMs?: number;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

/** If-Match compares strongly (§13.1.1): a weak tag on either side never matches. */
function anyStrongMatch(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  if (etag.startsWith("W/")) return false;
  return header.split(",").some((candidate) => candidate.trim() === etag);
}

/** If-None-Match compares weakly (§13.1.2): W/ prefixes do not matter. */
function anyWeakMatch(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((candidate) => opaque(candidate) === opaque(etag));
}

/** Whether the file changed after the header's date; an invalid date makes the header ignored (undefined). */
function modifiedAfter(header: string | undefined, modifiedMs: number | undefined): boolean | undefined {
  const since = Date.parse(header ?? "");
  if (Number.isNaN(since) || modifiedMs === undefined) return undefined;
  return Math.floor(modifiedMs / 1000) * 1000 > since;
}

/** 412 (a precondition failed), 304 (the client's copy is current), or undefined: send the file. */
export function evaluatePreconditions(headers: IncomingHttpHeaders, file: Validators): 412 | 304 | undefined {
  const ifMatch = headers["if-match"];
  if (ifMatch !== undefined) {
    if (!anyStrongMatch(ifMatch, file.etag)) return 412;
  } else if (modifiedAfter(headers["if-unmodified-since"], file.modifiedMs) === true) {
    return 412;
  }
  const ifNoneMatch = headers["if-none-match"];
  if (ifNoneMatch !== undefined) return anyWeakMatch(ifNoneMatch, file.etag) ? 304 : undefined;
  return modifiedAfter(headers["if-modified-since"], file.modifiedMs) === false ? 304 : undefined;
}
