import type { AppSecretsTable } from "./app-secrets.js";
import type { LocalAccountsTable } from "./local-accounts.js";
import type { OidcPayloadsTable } from "./oidc-payloads.js";
import type { SessionsTable } from "./sessions.js";
import type { UsersTable } from "./users.js";

export interface DatabaseSchema {
  users: UsersTable;
  sessions: SessionsTable;
  local_accounts: LocalAccountsTable;
  oidc_payloads: OidcPayloadsTable;
  app_secrets: AppSecretsTable;
}
