// Whether a ledger file holds the tables its schema version promises. SQLite's own check passes a file whose
// tables were dropped or altered (by hand, or by another program); the engine would then fail the same way at
// every start. Such a file is damage like any other: moved aside, and a new ledger started.
import Database from 'better-sqlite3';
import type { StateMigration } from './state-migrations';

type Schema = Map<string, Set<string>>;

/**
 * The tables and their columns after the first `version` migrations, by version (worked out once each). The first
 * `version` migrations are the same whichever domains were asked for, as every domain numbers its migrations in the
 * one sequence (state-migrations.ts).
 */
const expectedByVersion = new Map<number, Schema>();

/** What is missing from `db` for its schema version, in a few words; undefined when nothing is. */
export function schemaProblem(db: Database.Database, migrations: readonly StateMigration[]): string | undefined {
  const version = db.pragma('user_version', { simple: true }) as number;
  // A newer ledger is refused by its version, with its own message.
  if (version > migrations.length) return undefined;
  const actual = schemaOf(db);
  if (version === 0) {
    // No schema yet: the migrations will create every table, and must not find one of that name in the way.
    const taken = [...expectedSchema(migrations, migrations.length).keys()].find((table) => actual.has(table));
    return taken === undefined ? undefined : `it holds a table "${taken}" but no download ledger`;
  }
  for (const [table, columns] of expectedSchema(migrations, version)) {
    const found = actual.get(table);
    if (!found) return `its table "${table}" is missing`;
    for (const column of columns) if (!found.has(column)) return `its table "${table}" lacks the column "${column}"`;
  }
  return undefined;
}

function expectedSchema(migrations: readonly StateMigration[], version: number): Schema {
  let schema = expectedByVersion.get(version);
  if (!schema) {
    const db = new Database(':memory:');
    try {
      for (const migration of migrations.slice(0, version)) db.exec(migration.sql);
      schema = schemaOf(db);
    } finally {
      db.close();
    }
    expectedByVersion.set(version, schema);
  }
  return schema;
}

function schemaOf(db: Database.Database): Schema {
  const schema: Schema = new Map();
  const columns = db
    .prepare<[], { table: string; column: string }>(
      `SELECT m.name AS "table", p.name AS "column" FROM sqlite_master m, pragma_table_info(m.name) p
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`,
    )
    .all();
  for (const { table, column } of columns) {
    let found = schema.get(table);
    if (!found) schema.set(table, (found = new Set()));
    found.add(column);
  }
  return schema;
}
