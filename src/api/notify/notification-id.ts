/**
 * The stable id of one notification: the same on every try of it, different for every other, so that a
 * receiver that got a notification twice (its answer came after the timeout, and it was sent again) can
 * tell the copies from two leads. Derived from what the outbox row never changes (its id, kind, submission
 * and creation time), hashed so that ids from two databases do not collide; shaped as a UUID.
 * Web-standard (crypto.subtle), as every runtime that delivers has it.
 */
import type { OutboxRow } from "../store.ts";

export async function notificationId(row: OutboxRow): Promise<string> {
  const source = [row.id, row.kind, row.submission_type, row.submission_id, row.created_at].join("\n");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(source)));
  const hex = [...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
