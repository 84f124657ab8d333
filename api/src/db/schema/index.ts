import type { AccountTokensTable } from "./account-tokens.js";
import type { AppSecretsTable } from "./app-secrets.js";
import type { ChallengeMembersTable, ChallengesTable } from "./challenges.js";
import type { DrawPrizesTable, DrawsTable, DrawTicketsTable } from "./draws.js";
import type { GroupMembersTable, GroupsTable } from "./groups.js";
import type { LocalAccountsTable } from "./local-accounts.js";
import type { MailOutboxTable } from "./mail-outbox.js";
import type {
  NotificationSettingsTable,
  NotificationsTable,
  PushOutboxTable,
  PushSubscriptionsTable,
  SignInDevicesTable,
  StreakReminderChecksTable,
} from "./notifications.js";
import type { OidcPayloadsTable } from "./oidc-payloads.js";
import type { AuditLogTable, PostalEntriesTable } from "./operators.js";
import type { SubscriptionPaymentsTable } from "./revenue.js";
import type { SessionsTable } from "./sessions.js";
import type { SignInFailuresTable } from "./sign-in-failures.js";
import type { SignUpAttemptsTable } from "./sign-up-attempts.js";
import type { StepImportCallsTable, StepImportKeysTable } from "./step-import-keys.js";
import type {
  DayReviewsTable,
  IdempotencyRecordsTable,
  ManualStepEntriesTable,
  PaceReviewsTable,
  StepCountersTable,
  StepDaysTable,
  StepMonthsTable,
  StepPhotosTable,
} from "./steps.js";
import type { DailyGoalsTable, UserBadgesTable, UsersTable } from "./users.js";

export interface DatabaseSchema {
  challenges: ChallengesTable;
  challenge_members: ChallengeMembersTable;
  account_tokens: AccountTokensTable;
  users: UsersTable;
  daily_goals: DailyGoalsTable;
  user_badges: UserBadgesTable;
  sessions: SessionsTable;
  local_accounts: LocalAccountsTable;
  oidc_payloads: OidcPayloadsTable;
  app_secrets: AppSecretsTable;
  step_counters: StepCountersTable;
  step_days: StepDaysTable;
  step_months: StepMonthsTable;
  manual_step_entries: ManualStepEntriesTable;
  step_photos: StepPhotosTable;
  pace_reviews: PaceReviewsTable;
  day_reviews: DayReviewsTable;
  idempotency_records: IdempotencyRecordsTable;
  subscription_payments: SubscriptionPaymentsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  sign_in_failures: SignInFailuresTable;
  sign_up_attempts: SignUpAttemptsTable;
  step_import_keys: StepImportKeysTable;
  step_import_calls: StepImportCallsTable;
  mail_outbox: MailOutboxTable;
  audit_log: AuditLogTable;
  postal_entries: PostalEntriesTable;
  draws: DrawsTable;
  draw_tickets: DrawTicketsTable;
  draw_prizes: DrawPrizesTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_outbox: PushOutboxTable;
  sign_in_devices: SignInDevicesTable;
  streak_reminder_checks: StreakReminderChecksTable;
}
