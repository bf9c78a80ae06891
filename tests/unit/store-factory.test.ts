import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PG_MIGRATIONS } from "../../src/api/pg-migrations.ts";
import { PgSubmissionStore } from "../../src/api/pg-store.ts";
import { describeDatabaseUrl, redactDatabaseUrl } from "../../src/api/pg-url.ts";
import { SQLITE_MIGRATIONS } from "../../src/api/sqlite-migrations.ts";
import { SqliteSubmissionStore } from "../../src/api/sqlite-store.ts";
import { deliveryOf, emailKey, StoreError } from "../../src/api/store.ts";
import { openStore, storeKind } from "../../src/api/stores.ts";
import { submissionSettings } from "../../src/api/submission-settings.ts";
import { loadSiteConfig } from "../../src/generator/config.ts";
import { POSTGRES_MISSING, postgresBin } from "../pg-cluster.ts";

const ROOT = join(import.meta.dirname, "../..");
const previous = process.env.SUBMISSIONS_DB;
afterEach(() => {
  if (previous === undefined) delete process.env.SUBMISSIONS_DB;
  else process.env.SUBMISSIONS_DB = previous;
});

describe("choosing the store", () => {
  const choosesStoreFromEnv =
    "takes PostgreSQL when DATABASE_URL is set, else the SQLite file of submissions.database or SUBMISSIONS_DB";
  it(choosesStoreFromEnv, async () => {
    const sqlite = openStore({ database: "data/leads.db" }, {}, "/srv/site");
    expect(sqlite).toBeInstanceOf(SqliteSubmissionStore);
    expect((sqlite as SqliteSubmissionStore).file).toBe("/srv/site/data/leads.db");
    expect(storeKind({ DATABASE_URL: "  " })).toBe("sqlite");
    expect(openStore({}, { DATABASE_URL: "" }, "/srv/site")).toBeInstanceOf(SqliteSubmissionStore);

    process.env.SUBMISSIONS_DB = "/var/lib/sitegen/override.db";
    const overridden = openStore(
      submissionSettings(loadSiteConfig(ROOT), process.env),
      {},
      ROOT,
    ) as SqliteSubmissionStore;
    expect(overridden.file).toBe("/var/lib/sitegen/override.db");

    // No connection is made until the store is used.
    const postgres = openStore(
      { database: "ignored.db" },
      { DATABASE_URL: "postgresql://leads:s3cret@db.example.com/leads?sslmode=require" },
      "/srv/site",
    );
    expect(postgres).toBeInstanceOf(PgSubmissionStore);
    expect((postgres as PgSubmissionStore).target).toBe("db.example.com:5432/leads");
    expect(storeKind({ DATABASE_URL: "postgres://db/leads" })).toBe("postgres");
    await postgres.close();
  });

  it("refuses a DATABASE_URL that is not PostgreSQL's at once, with its password hidden", () => {
    const refused = (url: string) => {
      try {
        openStore({}, { DATABASE_URL: url }, "/srv/site");
      } catch (error) {
        expect(error).toBeInstanceOf(StoreError);
        expect((error as StoreError).code).toBe("invalid-url");
        return (error as Error).message;
      }
      throw new Error(`${url} was accepted`);
    };
    expect(refused("mysql://u:pw@db/leads")).toBe(
      "DATABASE_URL is mysql://u:***@db/leads: it must start with postgres:// or postgresql://.",
    );
    expect(refused("postgres:leads")).toBe("DATABASE_URL names no host: postgres:leads");
    expect(refused("postgres://u:pw@/leads")).toMatch(/^DATABASE_URL is not a URL \(it is not shown here/);
    expect(refused("host=db password=pw")).not.toContain("pw");
    expect(openStore({}, { DATABASE_URL: "postgresql:///leads?host=/run/postgresql" }, "/srv/site")).toBeInstanceOf(
      PgSubmissionStore,
    );
  });

  it("describes a database by host, port and name, never by its password", () => {
    expect(describeDatabaseUrl("postgres://u:p%40ss@db.internal:6543/leads")).toBe("db.internal:6543/leads");
    expect(describeDatabaseUrl("postgresql:///leads?host=/run/postgresql")).toBe("/run/postgresql:5432/leads");
    expect(redactDatabaseUrl("postgres://u:p%40ss@db.internal:6543/leads")).toBe(
      "postgres://u:***@db.internal:6543/leads",
    );
    expect(redactDatabaseUrl("x:secret/with/slashes@db")).toBe("x:***@db");
  });
});

describe("store rules shared by every backend", () => {
  it("compares addresses by their trimmed, NFC, lower-cased form", () => {
    expect(emailKey(" Ana@Example.COM ")).toBe("ana@example.com");
    expect(emailKey("JOÃO@x.com")).toBe(emailKey("joa\u0303o@x.com"));
  });

  it("sums up a submission's notifications as none, pending, failing or delivered", () => {
    expect(deliveryOf({ total: 0, undelivered: 0, attempts: 0, pendingAttempts: 0, lastError: null })).toEqual({
      delivery: "none",
      delivery_attempts: 0,
      delivery_error: null,
    });
    expect(deliveryOf({ total: 2, undelivered: 2, attempts: 0, pendingAttempts: 0, lastError: null }).delivery).toBe(
      "pending",
    );
    expect(deliveryOf({ total: 2, undelivered: 1, attempts: 3, pendingAttempts: 3, lastError: "502" })).toEqual({
      delivery: "failing",
      delivery_attempts: 3,
      delivery_error: "502",
    });
    expect(deliveryOf({ total: 2, undelivered: 0, attempts: 4, pendingAttempts: 0, lastError: null })).toEqual({
      delivery: "delivered",
      delivery_attempts: 4,
      delivery_error: null,
    });
  });

  it("numbers each dialect's migrations 1, 2, 3… with no gap and no repeat", () => {
    for (const migrations of [SQLITE_MIGRATIONS, PG_MIGRATIONS]) {
      expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
    }
  });
});

describe("the PostgreSQL test cluster", () => {
  it("fails with one line naming apt-get install -y postgresql when PostgreSQL is missing", () => {
    const empty = mkdtempSync(join(tmpdir(), "sitegen-no-pg-"));
    expect(() => postgresBin(empty)).toThrow(POSTGRES_MISSING);
    expect(POSTGRES_MISSING).toMatch(/^[^\n]*apt-get install -y postgresql[^\n]*$/);
  });
});
