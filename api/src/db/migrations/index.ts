import type { Migration, MigrationProvider } from "kysely";
import * as usersAndSignIn from "./0001-users-and-sign-in.js";

/** Every migration, listed explicitly (a folder scan breaks once the code is bundled). */
export const migrations: Record<string, Migration> = {
  "0001-users-and-sign-in": usersAndSignIn,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
