/**
 * One synchronous SQLite connection, whichever driver serves this Node best. From Node 24 it is Node's
 * own `node:sqlite`: better-sqlite3 12 wraps its objects in a way Node 24 aborts on when it frees them
 * (`Assertion failed: (env) != nullptr`), and better-sqlite3 13, which does not, no longer runs on Node 20.
 * Before Node 24 it is better-sqlite3 12, since `node:sqlite` is missing on Node 20 and still warns that it
 * is experimental on Node 22. The stores and the tests use only what both drivers offer alike, through this
 * module.
 */
import BetterSqlite from "better-sqlite3";

export interface SqliteStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  /** A deterministic scalar function callable from SQL (the migrations use one). */
  function(name: string, options: { deterministic: boolean }, fn: (...args: never[]) => unknown): void;
  close(): void;
}

export interface OpenOptions {
  /** Opens an existing file for reading only (it is not created). */
  readonly?: boolean;
}

interface NodeSqlite {
  DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => SqliteDatabase;
}

/** `node:sqlite` where this module prefers it (see above), else undefined. */
function nodeSqlite(): NodeSqlite | undefined {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 24) return undefined;
  return process.getBuiltinModule("node:sqlite") as NodeSqlite | undefined;
}

/** Which driver opens files in this process, for messages and tests. */
export const sqliteDriver: "node:sqlite" | "better-sqlite3" = nodeSqlite() ? "node:sqlite" : "better-sqlite3";

export function openSqlite(file: string, options: OpenOptions = {}): SqliteDatabase {
  const builtIn = nodeSqlite();
  if (builtIn) return new builtIn.DatabaseSync(file, { readOnly: options.readonly === true });
  return new BetterSqlite(file, {
    readonly: options.readonly === true,
    fileMustExist: options.readonly === true,
  }) as unknown as SqliteDatabase;
}

/**
 * Runs `work` in an IMMEDIATE transaction (the write lock taken at the start, so two writers never
 * deadlock upgrading a read lock): committed when it returns, rolled back when it throws.
 */
export function immediate<T>(db: SqliteDatabase, work: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  let result: T;
  try {
    result = work();
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
  db.exec("COMMIT");
  return result;
}

/** The value of a pragma, such as "wal" for journal_mode. */
export function pragmaValue(db: SqliteDatabase, name: string): unknown {
  const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown> | undefined;
  return row ? Object.values(row)[0] : undefined;
}
