import type { Compilable, CompiledQuery, Kysely, RawBuilder } from "kysely";
import type { DatabaseSchema } from "./schema/index.js";

/** `param(name)` in a named query's builder: the value that each run passes under `name`. */
export type Param<Values> = <Name extends keyof Values & string>(name: Name) => Values[Name];

/**
 * A statement declared once, where it is read, with named values; Kysely builds and compiles it
 * afresh on each run with that run's values, as it does any query. Runs on the database or inside
 * a transaction. (Compiling it once and reusing the result bought less than the benchmark's bar,
 * so it is not done: bench/README.md.)
 */
export class NamedQuery<Values extends Record<string, unknown>, Row> {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly build: (
      db: Kysely<DatabaseSchema>,
      param: Param<Values>,
    ) => Compilable<Row> | RawBuilder<Row>,
  ) {}

  /** The SQL as the database gets it, the same for any values (for tests that read its plan). */
  get sql(): string {
    return this.compile(() => null as never).sql;
  }

  private compile(param: Param<Values>): CompiledQuery<Row> {
    const built = this.build(this.db, param);
    // A query builder compiles on its own; raw SQL (`sql`) compiles against the database.
    return "isRawBuilder" in built ? built.compile(this.db) : built.compile();
  }

  async execute(executor: Kysely<DatabaseSchema>, values: Values): Promise<Row[]> {
    return (await executor.executeQuery<Row>(this.compile((name) => values[name]))).rows;
  }

  async executeTakeFirst(executor: Kysely<DatabaseSchema>, values: Values): Promise<Row | undefined> {
    return (await this.execute(executor, values))[0];
  }
}

/** A named query whose values are named by the annotation of `build`'s `param`. */
export function namedQuery<Values extends Record<string, unknown>, Row>(
  db: Kysely<DatabaseSchema>,
  build: (db: Kysely<DatabaseSchema>, param: Param<Values>) => Compilable<Row> | RawBuilder<Row>,
): NamedQuery<Values, Row> {
  return new NamedQuery(db, build);
}
