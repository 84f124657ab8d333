/**
 * A service worker's global scope, enough to deliver events to handlers: `scope` (an EventTarget
 * with what the test adds) is installed as `self`. `dispatch` answers what the handler passed to
 * `waitUntil`, or "not extended" when it did not extend the event.
 */
export function installFakeWorker(scope: Record<string, unknown>) {
  const target = Object.assign(new EventTarget(), scope);
  Object.assign(globalThis, { self: target });
  const dispatch = (type: string, extra: Record<string, unknown>): Promise<unknown> => {
    let waited: Promise<unknown> = Promise.resolve("not extended");
    const event = Object.assign(new Event(type), extra, {
      waitUntil(promise: Promise<unknown>) {
        waited = promise;
      },
    });
    target.dispatchEvent(event);
    return waited;
  };
  return { dispatch };
}
