/**
 * Where accepted submissions go. The handlers only know this interface, so an edge deployment can inject
 * its own store; `sitegen serve` injects the SQLite one (src/api/sqlite-store.ts, Node only).
 * Both methods are synchronous or awaited before the response is built: an acknowledged submission is stored.
 */
export interface NewsletterEntry {
  email: string;
  locale: string;
  createdAt: string;
  /** Sent sooner after the first keystroke than a person usually manages: kept, but marked for review. */
  suspect?: boolean;
}

export interface ContactEntry {
  firstName: string;
  lastName: string;
  email: string;
  /** null when the optional field was left empty. */
  company: string | null;
  message: string;
  locale: string;
  createdAt: string;
  /** As for the newsletter: sent implausibly fast, kept and marked. */
  suspect?: boolean;
}

export interface SubmissionStore {
  /**
   * "exists" when the address was already subscribed (compared case-insensitively); nothing is added then
   * (a submission that is not suspect clears the mark of an earlier one that was).
   */
  addNewsletter(entry: NewsletterEntry): "added" | "exists" | Promise<"added" | "exists">;
  addContact(entry: ContactEntry): void | Promise<void>;
  close(): void;
}
