/** Every in-app route. Sign-in and sign-out are server routes: LOGIN_PATH / LOGOUT_PATH. */
export const paths = {
  home: "/",
  dashboard: "/dashboard",
  charity: "/charity",
  prizeDraw: "/prize-draw",
  drawResults: "/prize-draw/results/:month",
  prizeClaim: "/prizes/:id/claim",
  groups: "/groups",
  groupDetail: "/groups/:id",
  groupJoin: "/groups/join/:code",
  account: "/account",
  appleHealth: "/apple-health",
  terms: "/terms",
  subscribe: "/subscribe",
  welcome: "/welcome",
  operator: "/operator",
  notifications: "/notifications",
  challenges: "/challenges",
  challenge: "/challenges/:id",
} as const;

export function groupPath(id: number): string {
  return `${paths.groups}/${id}`;
}

export function challengePagePath(id: string): string {
  return `${paths.challenges}/${id}`;
}
