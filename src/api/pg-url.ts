/**
 * DATABASE_URL, checked before a pool is made from it, and described without its password in every message
 * (a log line must never carry a credential). A failure to connect becomes a StoreError("unreachable"),
 * which the CLI shows with its catalogued hint.
 */
import { StoreError } from "./store.ts";

/**
 * The URL with any password hidden, for messages. Where the text is not a URL with a host, whatever comes
 * before its last @ may be a credential, so all of it is hidden.
 */
export function redactDatabaseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.host) {
      if (url.password) url.password = "***";
      return url.toString();
    }
  } catch {
    // Not a URL: hidden below.
  }
  const at = value.lastIndexOf("@");
  if (at === -1) return value;
  const scheme = /^[a-z][a-z0-9+.-]*:(\/\/)?/i.exec(value)?.[0] ?? "";
  return `${scheme}***${value.slice(at)}`;
}

/** host:port/database, the parts of the URL a person needs to tell which server was meant. */
export function describeDatabaseUrl(value: string): string {
  try {
    const url = new URL(value);
    // A unix socket is given as ?host=/run/postgresql with an empty host part.
    const host = url.hostname || url.searchParams.get("host") || "localhost";
    const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || url.username || "(default database)";
    return `${host}:${url.port || "5432"}/${database}`;
  } catch {
    return redactDatabaseUrl(value);
  }
}

/** The URL itself when it names a PostgreSQL database; a StoreError("invalid-url") saying what is wrong otherwise. */
export function checkDatabaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Nothing of it is shown: text that is no URL (say, libpq's "host=… password=…") may be all secrets.
    throw new StoreError(
      "invalid-url",
      "DATABASE_URL is not a URL (it is not shown here, as it may hold a password).",
      "DATABASE_URL",
    );
  }
  const shown = redactDatabaseUrl(value);
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new StoreError(
      "invalid-url",
      `DATABASE_URL is ${shown}: it must start with postgres:// or postgresql://.`,
      shown,
    );
  }
  if (!url.hostname && !url.searchParams.get("host")) {
    throw new StoreError("invalid-url", `DATABASE_URL names no host: ${shown}`, shown);
  }
  return value;
}

/** Network errors and the server's refusals (SQLSTATE classes 08 and 28, no such database, starting up, full). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "ENOENT",
  "EPIPE",
  "3D000",
  "57P03",
  "53300",
]);

function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08") || code.startsWith("28")))
    return true;
  return typeof message === "string" && /timeout exceeded when trying to connect|Connection terminated/i.test(message);
}

/** Why it failed, in words: Node's happy-eyeballs connect fails with an AggregateError whose own message is empty. */
function reasonOf(error: unknown): string {
  const e = error as { message?: string; code?: string; errors?: { message?: string }[] };
  return e.message || e.errors?.map((inner) => inner.message).join("; ") || e.code || String(error);
}

/**
 * `error` as a StoreError("unreachable") when it says the server could not be reached or refused us; as it is
 * otherwise.
 */
export function connectionFailure(error: unknown, target: string): unknown {
  if (!isConnectionError(error)) return error;
  return new StoreError("unreachable", `Could not connect to PostgreSQL at ${target}: ${reasonOf(error)}`, target, {
    cause: error,
  });
}
