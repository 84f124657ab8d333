import type { ChallengeKind, ChallengeScope } from "@charity-steps/shared-types";

export interface ChallengesTable {
  id: string;
  name: string;
  description: string;
  charity_name: string | null;
  kind: ChallengeKind;
  target: number;
  daily_target: number | null;
  /** London days, YYYY-MM-DD, both counted. */
  starts_on: string;
  ends_on: string;
  scope: ChallengeScope;
  group_id: number | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface ChallengeMembersTable {
  challenge_id: string;
  user_id: string;
  joined_at: number;
  /** When the walker (or their team) reached the target; set once. */
  completed_at: number | null;
  fundraising_url: string | null;
}
