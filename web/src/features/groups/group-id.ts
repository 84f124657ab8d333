/**
 * The group id in a /groups/{id} address. Anything that is not a whole number above 0 gives 0, and
 * a group's data is only loaded for ids above 0.
 */
export function parseGroupId(segment: string | undefined): number {
  if (segment === undefined || !/^\d+$/.test(segment)) return 0;
  const id = Number(segment);
  return Number.isSafeInteger(id) ? id : 0;
}
