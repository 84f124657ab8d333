import type { FastifyBaseLogger } from "fastify";
import fp from "fastify-plugin";
import { PasswordHasher } from "../auth/passwords.js";
import { AccountLinks } from "../auth/provider/account-links.js";
import { builtInIssuerOf } from "../auth/provider/provider.js";
import { SIGN_IN_THROTTLE } from "../auth/provider/throttle.js";
import { BadgeAwards } from "../badges/badge-awards.js";
import { ChallengeService } from "../challenges/challenge-service.js";
import { ChallengeStandings } from "../challenges/standings.js";
import type { AppConfig } from "../config.js";
import { Database, type SpeedOptions } from "../db/database.js";
import { READINGS_SHARED_MS } from "../db/shared-readings.js";
import { drandBeaconSource } from "../draws/drand-beacon.js";
import { DrawClose } from "../draws/draw-close.js";
import { DrawService } from "../draws/draw-service.js";
import { GroupLeaderboards } from "../groups/group-leaderboards.js";
import { EligibleSteps } from "../ledger/eligible-steps.js";
import { StepLedger } from "../ledger/ledger.js";
import { MailQueue } from "../mail/queue.js";
import { createMailTransport } from "../mail/transport.js";
import { Notifier } from "../notifications/notifier.js";
import { PushQueue } from "../notifications/push-queue.js";
import { StreakReminders } from "../notifications/streak-reminders.js";
import { UnsubscribeLinks } from "../notifications/unsubscribe-links.js";
import { WeeklySummaries } from "../notifications/weekly-summaries.js";
import { AccountDataRepository } from "../repositories/account-data.js";
import { AccountTokensRepository } from "../repositories/account-tokens.js";
import { AppSecretsRepository } from "../repositories/app-secrets.js";
import { AuditLogRepository } from "../repositories/audit-log.js";
import { BadgesRepository } from "../repositories/badges.js";
import { ChallengesRepository } from "../repositories/challenges.js";
import { CharityImpactRepository } from "../repositories/charity-impact.js";
import { DrawsRepository } from "../repositories/draws.js";
import { GroupsRepository } from "../repositories/groups.js";
import { HabitsRepository } from "../repositories/habits.js";
import { HealthRepository } from "../repositories/health.js";
import { LocalAccountsRepository } from "../repositories/local-accounts.js";
import { MailOutboxRepository } from "../repositories/mail-outbox.js";
import { ManualEntriesRepository } from "../repositories/manual-entries.js";
import { NotificationsRepository } from "../repositories/notifications.js";
import { OidcPayloadsRepository } from "../repositories/oidc-payloads.js";
import { PostalEntriesRepository } from "../repositories/postal-entries.js";
import { RevenueRepository } from "../repositories/revenue.js";
import { ReviewsRepository } from "../repositories/reviews.js";
import { SessionsRepository } from "../repositories/sessions.js";
import { SignInThrottleRepository } from "../repositories/sign-in-throttle.js";
import { SignUpThrottleRepository } from "../repositories/sign-up-throttle.js";
import { BAD_KEY_WINDOW_MS, StepImportKeysRepository } from "../repositories/step-import-keys.js";
import { StepPhotosRepository } from "../repositories/step-photos.js";
import { UsersRepository } from "../repositories/users.js";

/** Every repository, and the step ledger with its fair-play reads: the only ways to the data. */
export interface Repositories {
  health: HealthRepository;
  users: UsersRepository;
  habits: HabitsRepository;
  badges: BadgesRepository;
  sessions: SessionsRepository;
  localAccounts: LocalAccountsRepository;
  accountTokens: AccountTokensRepository;
  oidcPayloads: OidcPayloadsRepository;
  appSecrets: AppSecretsRepository;
  signInThrottle: SignInThrottleRepository;
  signUpThrottle: SignUpThrottleRepository;
  /** The sign-in throttle's table on a one-minute window, for calls with a step-import key that fails. */
  badImportKeyThrottle: SignInThrottleRepository;
  ledger: StepLedger;
  eligibleSteps: EligibleSteps;
  manualEntries: ManualEntriesRepository;
  stepPhotos: StepPhotosRepository;
  stepImportKeys: StepImportKeysRepository;
  revenue: RevenueRepository;
  charityImpact: CharityImpactRepository;
  groups: GroupsRepository;
  challenges: ChallengesRepository;
  mailOutbox: MailOutboxRepository;
  notifications: NotificationsRepository;
  auditLog: AuditLogRepository;
  postalEntries: PostalEntriesRepository;
  reviews: ReviewsRepository;
  draws: DrawsRepository;
  accountData: AccountDataRepository;
}

/** The services above the repositories: the work that spans several of them, or the world outside. */
export interface Services {
  /** The API's mail: `send` queues a message in the database; the worker sends it. */
  mail: MailQueue;
  /** The months' prize draws: closes, runs, claims and redraws. */
  draws: DrawService;
  /** The built-in accounts' password hashes, at the configured cost. */
  passwords: PasswordHasher;
  /** The built-in accounts' mailed links; null with an external provider (it has no accounts here). */
  accountLinks: AccountLinks | null;
  /** Walkers' badges: awarded when read, and shortly after steps arrive. */
  badges: BadgeAwards;
  /** Monday's look back on the week, told to each walker who walked. */
  weeklySummaries: WeeklySummaries;
  /** The signed one-click unsubscribe of each kind of notification mail. */
  unsubscribeLinks: UnsubscribeLinks;
  /** Web Push: `push_outbox` sent by a worker in every process, and the server's VAPID key. */
  push: PushQueue;
  /** Tells walkers what matters: the bell's list, and pushes as they chose. */
  notifier: Notifier;
  /** At each walker's reminder time: a streak that needs today's goal. */
  streakReminders: StreakReminders;
  /** Challenges: who sees, sets and joins them, their progress and completion, certificates. */
  challenges: ChallengeService;
  /** Groups' monthly leaderboards, the steps waiting for a check marked. */
  groupLeaderboards: GroupLeaderboards;
}

export interface DataLayer {
  repositories: Repositories;
  services: Services;
}

/**
 * The composition root: builds every repository and service once, from the database, and hands each
 * what it needs. Nothing is rewired after this: a draw's close reaches the ledger here, as the
 * dependency the ledger awaits before it stores any step.
 */
export async function buildDataLayer(
  database: Database,
  deps: { config: AppConfig; log: FastifyBaseLogger },
): Promise<DataLayer> {
  const { config, log } = deps;
  const { db, dialect, speed } = database;

  const auditLog = new AuditLogRepository(db);
  const users = new UsersRepository(db);
  const localAccounts = new LocalAccountsRepository(db);
  const accountTokens = new AccountTokensRepository(database);
  const mailOutbox = new MailOutboxRepository(database);
  const eligibleSteps = new EligibleSteps(database);
  const draws = new DrawsRepository(database, auditLog, eligibleSteps);
  const drawClose = new DrawClose(draws, log);
  const ledger = await StepLedger.open(database, drawClose, { groupCommit: speed.groupCommit });
  const stepPhotos = new StepPhotosRepository(db);
  const habits = new HabitsRepository(database);
  const badges = new BadgesRepository(database);
  const appSecrets = new AppSecretsRepository(db);
  const notifications = new NotificationsRepository(database, mailOutbox);
  const groups = new GroupsRepository(database);
  const challenges = new ChallengesRepository(database, auditLog);

  const repositories: Repositories = {
    health: new HealthRepository(database),
    users,
    habits,
    badges,
    sessions: new SessionsRepository(db, dialect, speed),
    localAccounts,
    accountTokens,
    oidcPayloads: new OidcPayloadsRepository(db),
    appSecrets,
    signInThrottle: new SignInThrottleRepository(db, SIGN_IN_THROTTLE.windowMs),
    signUpThrottle: new SignUpThrottleRepository(db),
    badImportKeyThrottle: new SignInThrottleRepository(db, BAD_KEY_WINDOW_MS),
    ledger,
    eligibleSteps,
    manualEntries: new ManualEntriesRepository(db, ledger, stepPhotos),
    stepPhotos,
    stepImportKeys: new StepImportKeysRepository(database),
    revenue: new RevenueRepository(db),
    charityImpact: new CharityImpactRepository(db),
    groups,
    challenges,
    mailOutbox,
    notifications,
    auditLog,
    postalEntries: new PostalEntriesRepository(database, auditLog),
    reviews: new ReviewsRepository(database, auditLog, eligibleSteps),
    draws,
    accountData: new AccountDataRepository(database, mailOutbox, notifications),
  };

  const { smtpUrl, mailFrom, dataDir } = config;
  const mail = new MailQueue(
    mailOutbox,
    createMailTransport({ smtpUrl, mailFrom, dataDir, log, sendTimeoutMs: 60_000 }),
    log,
  );
  const push = new PushQueue({ notifications, secrets: appSecrets, config: config.push }, log);
  const unsubscribeLinks = new UnsubscribeLinks({ secrets: appSecrets, config });
  const notifier = new Notifier({
    notifications,
    users,
    habits,
    push,
    mail,
    links: unsubscribeLinks,
    config,
    log,
  });
  const challengeService = new ChallengeService({
    challenges,
    standings: new ChallengeStandings(
      { challenges, eligibleSteps },
      speed.sharedStandings ? READINGS_SHARED_MS : 0,
    ),
    eligibleSteps,
    groups,
    users,
    badges,
    notifier,
    log,
  });
  const issuer = builtInIssuerOf(config);
  const passwords = new PasswordHasher(config.passwordHashCost);
  const services: Services = {
    mail,
    draws: new DrawService({
      draws,
      close: drawClose,
      notifier,
      config,
      log,
      beacon: config.drawBeacon ? drandBeaconSource(config.drawBeacon) : null,
    }),
    passwords,
    accountLinks: issuer
      ? new AccountLinks({
          issuer,
          passwords,
          publicUrl: config.publicUrl,
          mail,
          tokens: accountTokens,
          localAccounts,
          users,
        })
      : null,
    badges: new BadgeAwards({ badges, habits, eligibleSteps, notifier, challenges: challengeService, log }),
    weeklySummaries: new WeeklySummaries({ habits, health: repositories.health, notifier, config, log }),
    unsubscribeLinks,
    push,
    notifier,
    streakReminders: new StreakReminders({ notifications, habits, notifier }),
    challenges: challengeService,
    groupLeaderboards: new GroupLeaderboards(
      { groups, eligibleSteps },
      speed.sharedStandings ? READINGS_SHARED_MS : 0,
    ),
  };
  return { repositories, services };
}

declare module "fastify" {
  interface FastifyInstance {
    /** The database itself: for the data layer, the server's start-up log and tests, never routes. */
    database: Database;
    repositories: Repositories;
    services: Services;
  }
}

/**
 * Opens the database, migrates it to the latest schema, and decorates the app with the data layer
 * (`buildDataLayer`). Routes reach data only through `app.repositories` and `app.services`.
 */
export const dataPlugin = fp<{ speed?: SpeedOptions }>(
  async (app, options) => {
    const database = Database.connect(app.config.databaseUrl, { speed: options.speed });
    app.addHook("onClose", async () => database.close());
    await database.migrateToLatest();
    const { repositories, services } = await buildDataLayer(database, { config: app.config, log: app.log });
    app.decorate("database", database);
    app.decorate("repositories", repositories);
    app.decorate("services", services);
  },
  { name: "data", dependencies: ["config"] },
);
