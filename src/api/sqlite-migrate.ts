/**
 * Applies the SQLite migrations (sqlite-migrations.ts) to a file through its driver. Apart from the
 * migrations themselves, which D1 reads too: this module loads the file driver, which a Worker cannot.
 */
import { immediate, type SqliteDatabase } from "./sqlite-driver.ts";
import { SCHEMA_MIGRATIONS_TABLE, SQLITE_MIGRATIONS, type SqliteMigration } from "./sqlite-migrations.ts";

/**
 * Applies the migrations not yet recorded, up to `upTo` (all by default; a test stops earlier to make an
 * older file). Each runs in an IMMEDIATE transaction and is checked again inside it, so two processes
 * opening one file at once apply it once.
 */
export function migrateSqlite(
  db: SqliteDatabase,
  upTo = Infinity,
  migrations: readonly SqliteMigration[] = SQLITE_MIGRATIONS,
): number[] {
  db.exec(SCHEMA_MIGRATIONS_TABLE);
  const isApplied = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?");
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version > upTo) break;
    immediate(db, () => {
      if (isApplied.get(migration.version)) return;
      for (const step of migration.steps) typeof step === "string" ? db.exec(step) : step(db);
      record.run(migration.version, migration.name, new Date().toISOString());
      applied.push(migration.version);
    });
  }
  return applied;
}
