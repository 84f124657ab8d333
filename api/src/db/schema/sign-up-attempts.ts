/** Sign-ups counted under one key (`ip:<network>`) since the window began. */
export interface SignUpAttemptsTable {
  key: string;
  attempts: number;
  window_started_at: number;
}
