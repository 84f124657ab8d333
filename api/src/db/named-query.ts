import type { Compilable, CompiledQuery, Kysely, RawBuilder } from "kysely";
import type { DatabaseSchema } from "./schema/index.js";

/** Where a named value goes in a query built once; replaced by the value on every run. */
class Slot {
  constructor(readonly name: string) {}
}

/** `param(name)` in a prepared query's builder: the value that each run passes under `name`. */
export type Param<Values> = <Name extends keyof Values & string>(name: Name) => Values[Name];

/**
 * A query built and compiled by Kysely once, then run many times with new values: Kysely builds and
 * compiles every query afresh, which on the step-sync path cost more CPU than SQLite running it.
 * `build` gets `param(name)` to stand for each value; everything else (columns, literals,
 * the SQL itself) is fixed at build time. Runs on the database or inside a transaction. (On
 * PostgreSQL each run is planned afresh: keeping a named statement's plan per connection bought
 * less than the benchmark's bar, bench/README.md.)
 */
export class PreparedQuery<Values extends Record<string, unknown>, Row> {
  private readonly compiled: CompiledQuery<Row>;
  private readonly parameters: readonly (Slot | { value: unknown })[];

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly build: (
      db: Kysely<DatabaseSchema>,
      param: Param<Values>,
    ) => Compilable<Row> | RawBuilder<Row>,
    private readonly options: PreparedQueryOptions = {},
  ) {
    this.compiled = this.compile((name) => new Slot(name) as never);
    this.parameters = this.compiled.parameters.map((parameter) =>
      parameter instanceof Slot ? parameter : { value: parameter },
    );
  }

  /** The SQL as the database gets it (for tests that read its plan). */
  get sql(): string {
    return this.compiled.sql;
  }

  private compile(param: Param<Values>): CompiledQuery<Row> {
    const built = this.build(this.db, param);
    // A query builder compiles on its own; raw SQL (`sql`) compiles against the database.
    return "isRawBuilder" in built ? built.compile(this.db) : built.compile();
  }

  async execute(executor: Kysely<DatabaseSchema>, values: Values): Promise<Row[]> {
    if (this.options.unprepared) {
      const compiled = this.compile((name) => values[name]);
      return (await executor.executeQuery<Row>(compiled)).rows;
    }
    const parameters = this.parameters.map((parameter) =>
      parameter instanceof Slot ? values[parameter.name] : parameter.value,
    );
    const result = await executor.executeQuery<Row>({ ...this.compiled, parameters });
    return result.rows;
  }

  async executeTakeFirst(executor: Kysely<DatabaseSchema>, values: Values): Promise<Row | undefined> {
    return (await this.execute(executor, values))[0];
  }
}

export interface PreparedQueryOptions {
  /** Built and compiled afresh on every run, as any Kysely query is (`SpeedOptions.preparedStatements`). */
  unprepared?: boolean;
}

/** A prepared query whose values are named by the annotation of `build`'s `param`. */
export function prepareQuery<Values extends Record<string, unknown>, Row>(
  db: Kysely<DatabaseSchema>,
  build: (db: Kysely<DatabaseSchema>, param: Param<Values>) => Compilable<Row> | RawBuilder<Row>,
  options: PreparedQueryOptions = {},
): PreparedQuery<Values, Row> {
  return new PreparedQuery(db, build, options);
}
