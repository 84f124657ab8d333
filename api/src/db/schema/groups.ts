import type { Generated } from "kysely";

/** A walking group. Its admin (the walker who created it) is also its first member. */
export interface GroupsTable {
  id: Generated<number>;
  name: string;
  /** Empty when the admin gave none. */
  description: string;
  /** JOIN_CODE_LENGTH characters of JOIN_CODE_ALPHABET, unique. */
  join_code: string;
  admin_user_id: string;
  created_at: number;
}

/** One row per walker and group they belong to; removed with either. */
export interface GroupMembersTable {
  group_id: number;
  user_id: string;
  joined_at: number;
}
