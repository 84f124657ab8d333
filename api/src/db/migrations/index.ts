import type { Migration, MigrationProvider } from "kysely";
import * as usersAndSignIn from "./0001-users-and-sign-in.js";
import * as stepLedger from "./0002-step-ledger.js";
import * as charityAndRevenue from "./0003-charity-and-revenue.js";
import * as groups from "./0004-groups.js";
import * as signInThrottle from "./0005-sign-in-throttle.js";
import * as stepMonths from "./0006-step-months.js";
import * as ledgerWithoutRowid from "./0007-ledger-without-rowid.js";
import * as ledgerFunctions from "./0008-ledger-functions.js";
import * as ledgerFunctionPlans from "./0009-ledger-function-plans.js";
import * as signUpThrottle from "./0010-sign-up-throttle.js";
import * as stepImportKeys from "./0011-step-import-keys.js";
import * as mailOutbox from "./0012-mail-outbox.js";
import * as accountTokens from "./0013-account-tokens.js";
import * as sessionDevices from "./0014-session-devices.js";
import * as operators from "./0015-operators.js";
import * as draws from "./0016-draws.js";
import * as drawResults from "./0017-draw-results.js";
import * as fairPlay from "./0018-fair-play.js";
import * as emailChanges from "./0019-email-changes.js";
import * as fairPlayDays from "./0020-fair-play-days.js";
import * as dailyHabit from "./0021-daily-habit.js";
import * as badges from "./0022-badges.js";
import * as weeklyEmail from "./0023-weekly-email.js";
import * as notifications from "./0024-notifications.js";
import * as weeklySummaryNotifications from "./0025-weekly-summary-notifications.js";
import * as challenges from "./0026-challenges.js";

/** Every migration, listed explicitly (a folder scan breaks once the code is bundled). */
export const migrations: Record<string, Migration> = {
  "0001-users-and-sign-in": usersAndSignIn,
  "0002-step-ledger": stepLedger,
  "0003-charity-and-revenue": charityAndRevenue,
  "0004-groups": groups,
  "0005-sign-in-throttle": signInThrottle,
  "0006-step-months": stepMonths,
  "0007-ledger-without-rowid": ledgerWithoutRowid,
  "0008-ledger-functions": ledgerFunctions,
  "0009-ledger-function-plans": ledgerFunctionPlans,
  "0010-sign-up-throttle": signUpThrottle,
  "0011-step-import-keys": stepImportKeys,
  "0012-mail-outbox": mailOutbox,
  "0013-account-tokens": accountTokens,
  "0014-session-devices": sessionDevices,
  "0015-operators": operators,
  "0016-draws": draws,
  "0017-draw-results": drawResults,
  "0018-fair-play": fairPlay,
  "0019-email-changes": emailChanges,
  "0020-fair-play-days": fairPlayDays,
  "0021-daily-habit": dailyHabit,
  "0022-badges": badges,
  "0023-weekly-email": weeklyEmail,
  "0024-notifications": notifications,
  "0025-weekly-summary-notifications": weeklySummaryNotifications,
  "0026-challenges": challenges,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
