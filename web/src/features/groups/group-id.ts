/**
 * The group id of a /groups/{id} address: its last path segment. Anything that is not a
 * whole number above 0 gives 0, and a group's data is only loaded for ids above 0.
 */
export function groupIdFromPath(pathname: string): number {
  const lastSegment = pathname.split("/").filter(Boolean).at(-1) ?? "";
  if (!/^\d+$/.test(lastSegment)) return 0;
  const id = Number(lastSegment);
  return Number.isSafeInteger(id) ? id : 0;
}
