import { type ComponentType, createContext, startTransition, useContext, useEffect, useState } from "react";
import { LoadingSpinner } from "../components/loading-spinner";
import { afterPaint } from "../lib/after-paint";

/**
 * Told once a screen has been painted (or has failed to load): the layout adds what the first
 * screen can do without (the notification bell) only then, so that its code and its request do not
 * share a phone's few connections with the screen's.
 */
export const ScreenShown = createContext<() => void>(() => {});

/** A screen whose code is a chunk of its own, loaded when first shown or earlier with `preload`. */
export interface ScreenCode {
  preload(): Promise<ComponentType>;
  /** The screen's component, once its code has loaded. */
  readonly loaded: ComponentType | undefined;
}

/** The screen `pick` finds in the module `load` brings. */
export function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ScreenCode {
  let loading: Promise<ComponentType> | undefined;
  const code: { -readonly [K in keyof ScreenCode]: ScreenCode[K] } = {
    loaded: undefined,
    preload() {
      if (!loading) {
        const attempt = load().then((module) => {
          code.loaded = pick(module);
          return code.loaded;
        });
        // A chunk that failed to load (offline, or a new release replaced it) is asked for again next time.
        attempt.catch(() => {
          if (loading === attempt) loading = undefined;
        });
        loading = attempt;
      }
      return loading;
    },
  };
  return code;
}

/**
 * Shows the screen `of`, with a spinner while its code loads.
 *
 * Not `React.lazy`: the spinner is this component's own state rather than a Suspense fallback.
 * React holds back content that waited behind a fallback until the fallback has shown for 300 ms,
 * so a screen whose code arrived a moment after the app started (as the preloaded one does) showed
 * only after that pause. A screen whose code has already loaded shows in the first render.
 */
export function Screen({ of }: { of: ScreenCode }) {
  const [, setLoaded] = useState<ScreenCode>();
  const [failed, setFailed] = useState<{ of: ScreenCode; error: unknown }>();
  const Component = of.loaded;
  const loadFailed = failed !== undefined && failed.of === of;
  const screenShown = useContext(ScreenShown);
  useEffect(() => {
    if (Component || loadFailed) return afterPaint(screenShown);
  }, [Component, loadFailed, screenShown]);
  // Judged on what this render drew: code that arrived between the render and this effect (the
  // preload's) is already loaded, and `preload` then answers at once.
  useEffect(() => {
    if (Component) return;
    let current = true;
    of.preload().then(
      // A transition: React may pause to paint while it draws a large screen.
      () => current && startTransition(() => setLoaded(of)),
      (reason: unknown) => current && setFailed({ of, error: reason }),
    );
    return () => {
      current = false;
    };
  }, [of, Component]);
  // The screen's error boundary says the page could not be shown, as for any other failure.
  if (loadFailed) throw failed.error;
  return Component ? <Component /> : <LoadingSpinner />;
}
