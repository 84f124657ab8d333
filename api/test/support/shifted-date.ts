let shiftedBy = 0;

/**
 * Makes the global Date read `offsetMs` away from the machine's clock, running at its pace (to the
 * millisecond, so that one thing done after another is stamped later); returns the undo. Dates
 * built from a given time are untouched.
 */
export function shiftDate(offsetMs: number): () => void {
  const RealDate = Date;
  const now = () => RealDate.now() + offsetMs;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) =>
      Reflect.construct(target, args.length > 0 ? args : [now()], newTarget),
    // Date() called without new answers the current time as text.
    apply: () => new RealDate(now()).toString(),
    get: (target, key, receiver) => (key === "now" ? now : Reflect.get(target, key, receiver)),
  });
  shiftedBy = offsetMs;
  return () => {
    globalThis.Date = RealDate;
    shiftedBy = 0;
  };
}

/** How far this process's Date is from the machine's clock: what a process it starts must be shifted by. */
export function dateShift(): number {
  return shiftedBy;
}
