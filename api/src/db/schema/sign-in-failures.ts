/** Failed sign-ins counted under one key (`email:<address>` or `ip:<address>`) since the window began. */
export interface SignInFailuresTable {
  key: string;
  failures: number;
  window_started_at: number;
}
