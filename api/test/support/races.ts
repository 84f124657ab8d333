/** A read of walkers by their ids, the ids first. */
type ReadOfWalkers = (ids: readonly string[], ...rest: never[]) => Promise<unknown>;

/**
 * Makes `meanwhile` happen between a read and the write that follows it, as a request racing the
 * reader would: the first time `object[method]` reads `userId`, `meanwhile` runs after the read and
 * before its answer reaches the caller. `happened` says whether it did; `restore` ends it.
 */
export function meanwhileAfterReading<K extends string, O extends Record<K, ReadOfWalkers>>(
  object: O,
  method: K,
  userId: string,
  meanwhile: () => Promise<unknown>,
): { happened: () => boolean; restore: () => void } {
  const own = Object.hasOwn(object, method);
  const original = object[method];
  let happened = false;
  const racing: ReadOfWalkers = async (ids, ...rest) => {
    const answer = await original.call(object, ids, ...rest);
    if (!happened && ids.includes(userId)) {
      happened = true;
      await meanwhile();
    }
    return answer;
  };
  object[method] = racing as O[K];
  return {
    happened: () => happened,
    restore: () => {
      if (own) object[method] = original;
      else delete object[method];
    },
  };
}
