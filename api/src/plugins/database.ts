import fp from "fastify-plugin";
import { Database, type SpeedOptions } from "../db/database.js";
import { AppSecretsRepository } from "../repositories/app-secrets.js";
import { GroupsRepository } from "../repositories/groups.js";
import { LocalAccountsRepository } from "../repositories/local-accounts.js";
import { MailOutboxRepository } from "../repositories/mail-outbox.js";
import { OidcPayloadsRepository } from "../repositories/oidc-payloads.js";
import { RevenueRepository } from "../repositories/revenue.js";
import { SessionsRepository } from "../repositories/sessions.js";
import { SignInThrottleRepository } from "../repositories/sign-in-throttle.js";
import { StepImportKeysRepository } from "../repositories/step-import-keys.js";
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
  signInThrottle: SignInThrottleRepository;
  stepImportKeys: StepImportKeysRepository;
  mailOutbox: MailOutboxRepository;
}

declare module "fastify" {
  interface FastifyInstance {
    database: Database;
    repositories: Repositories;
  }
}

/**
 * Sign-in attempts that did not succeed, per 15 minutes: 5 for one email from one
 * network address, 50 for one email from anywhere, 20 from one address for any emails. Past a
 * limit, sign-in under it waits for the rest of the 15 minutes.
 */
export const SIGN_IN_THROTTLE = {
  windowMs: 15 * 60_000,
  perEmailAndAddress: 5,
  perEmail: 50,
  perAddress: 20,
} as const;

/** Opens the database, migrates it to the latest schema, and exposes the repositories. */
export const databasePlugin = fp<{ speed?: SpeedOptions }>(
  async (app, options) => {
    const database = Database.connect(app.config.databaseUrl, { speed: options.speed });
    app.addHook("onClose", async () => database.close());
    await database.migrateToLatest();
    const { db } = database;
    app.decorate("database", database);
    app.decorate("repositories", {
      users: new UsersRepository(db),
      sessions: new SessionsRepository(db, database.dialect, database.speed),
      localAccounts: new LocalAccountsRepository(db),
      oidcPayloads: new OidcPayloadsRepository(db),
      appSecrets: new AppSecretsRepository(db),
      steps: await StepsRepository.open(database),
      revenue: new RevenueRepository(db),
      groups: new GroupsRepository(database),
      signInThrottle: new SignInThrottleRepository(db, SIGN_IN_THROTTLE.windowMs),
      stepImportKeys: new StepImportKeysRepository(database),
      mailOutbox: new MailOutboxRepository(database),
    } satisfies Repositories);
  },
  { name: "database", dependencies: ["config"] },
);
