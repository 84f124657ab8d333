import fp from "fastify-plugin";
import { Database } from "../db/database.js";
import { AppSecretsRepository } from "../repositories/app-secrets.js";
import { GroupsRepository } from "../repositories/groups.js";
import { LocalAccountsRepository } from "../repositories/local-accounts.js";
import { OidcPayloadsRepository } from "../repositories/oidc-payloads.js";
import { RevenueRepository } from "../repositories/revenue.js";
import { SessionsRepository } from "../repositories/sessions.js";
import { StepsRepository } from "../repositories/steps.js";
import { UsersRepository } from "../repositories/users.js";

export interface Repositories {
  users: UsersRepository;
  sessions: SessionsRepository;
  localAccounts: LocalAccountsRepository;
  oidcPayloads: OidcPayloadsRepository;
  appSecrets: AppSecretsRepository;
  steps: StepsRepository;
  revenue: RevenueRepository;
  groups: GroupsRepository;
}

declare module "fastify" {
  interface FastifyInstance {
    database: Database;
    repositories: Repositories;
  }
}

/** Opens the database, migrates it to the latest schema, and exposes the repositories. */
export const databasePlugin = fp(
  async (app) => {
    const database = Database.connect(app.config.databaseUrl);
    app.addHook("onClose", async () => database.close());
    await database.migrateToLatest();
    const { db } = database;
    app.decorate("database", database);
    app.decorate("repositories", {
      users: new UsersRepository(db),
      sessions: new SessionsRepository(db),
      localAccounts: new LocalAccountsRepository(db),
      oidcPayloads: new OidcPayloadsRepository(db),
      appSecrets: new AppSecretsRepository(db),
      steps: new StepsRepository(database),
      revenue: new RevenueRepository(db),
      groups: new GroupsRepository(database),
    } satisfies Repositories);
  },
  { name: "database", dependencies: ["config"] },
);
