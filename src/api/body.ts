/**
 * Reading a form endpoint's body: JSON or urlencoded, at most `limit` bytes, and UTF-8 throughout. Both
 * kinds refuse bytes that are not UTF-8 rather than store U+FFFD in their place: in a urlencoded body the
 * bytes behind percent escapes are checked too, which URLSearchParams would silently replace.
 */
import { bodyKind, readBody } from "./http.ts";
import type { FieldReader } from "./validate.ts";

export type ParsedBody =
  { ok: true; read: FieldReader } | { ok: false; reason: "unsupported" | "too-large" | "malformed" };

/** decode() without `stream` starts afresh each call, so one fatal decoder serves every request. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });
const ENCODER = new TextEncoder();

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * One name or value of an application/x-www-form-urlencoded body, as the URL Standard reads it ("+" is a
 * space, "%XX" a byte, a "%" not followed by two hex digits stays as it is), except that the bytes must be
 * UTF-8: `undefined` when they are not.
 */
export function decodeFormComponent(text: string): string | undefined {
  if (!text.includes("%") && !text.includes("+")) return text;
  // Never more bytes than the text's own UTF-8: at most 3 per UTF-16 unit; escapes only shrink.
  const bytes = new Uint8Array(text.length * 3);
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x2b) {
      bytes[size++] = 0x20;
    } else if (code === 0x25 && hexValue(text.charCodeAt(i + 1)) >= 0 && hexValue(text.charCodeAt(i + 2)) >= 0) {
      bytes[size++] = hexValue(text.charCodeAt(i + 1)) * 16 + hexValue(text.charCodeAt(i + 2));
      i += 2;
    } else if (code < 0x80) {
      bytes[size++] = code;
    } else {
      // Raw non-ASCII text (already valid: the whole body was decoded strictly): its own UTF-8 bytes.
      const point = text.codePointAt(i)!;
      size += ENCODER.encodeInto(String.fromCodePoint(point), bytes.subarray(size)).written;
      if (point > 0xffff) i++;
    }
  }
  try {
    return UTF8.decode(bytes.subarray(0, size));
  } catch {
    return undefined;
  }
}

/** Name → every value it was given, in order; `undefined` when any name or value is not UTF-8. */
export function parseFormBody(text: string): Map<string, string[]> | undefined {
  const fields = new Map<string, string[]>();
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const at = pair.indexOf("=");
    const name = decodeFormComponent(at === -1 ? pair : pair.slice(0, at));
    const value = decodeFormComponent(at === -1 ? "" : pair.slice(at + 1));
    if (name === undefined || value === undefined) return undefined;
    const values = fields.get(name);
    if (values) values.push(value);
    else fields.set(name, [value]);
  }
  return fields;
}

export async function parseBody(request: Request, limit: number): Promise<ParsedBody> {
  const kind = bodyKind(request);
  if (kind !== "json" && kind !== "form") return { ok: false, reason: "unsupported" };
  const body = await readBody(request, limit);
  if (!body.ok) return { ok: false, reason: body.reason === "too-large" ? "too-large" : "malformed" };
  let text: string;
  try {
    text = UTF8.decode(body.bytes);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (kind === "form") {
    const fields = parseFormBody(text);
    if (!fields) return { ok: false, reason: "malformed" };
    return {
      ok: true,
      read(name) {
        const values = fields.get(name);
        // A repeated field is not a single string: the validators refuse it like a JSON array.
        return values === undefined ? undefined : values.length === 1 ? values[0] : values;
      },
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return { ok: false, reason: "malformed" };
  const record = data as Record<string, unknown>;
  return { ok: true, read: (name) => (Object.hasOwn(record, name) ? record[name] : undefined) };
}
