import fp from "fastify-plugin";
import { drandBeaconSource } from "./drand-beacon.js";
import { DrawService } from "./draw-service.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The months' prize draws: closes, runs, claims and redraws. */
    draws: DrawService;
  }
}

/** How often each process looks for a month to close, a draw to run and a winner to tell. */
export const DRAW_TICK_MS = 60_000;

/**
 * The draws on the app as `app.draws`. Every step stored first closes a month past its close (so
 * the close counts exactly the steps stored before it), and the scheduled job runs in every
 * process from `ready` until `close`; the database makes each thing it does happen once.
 */
export const drawsPlugin = fp<{ tickMs?: number | null }>(
  async (app, options) => {
    const draws = new DrawService({
      database: app.database,
      mail: app.mail,
      config: app.config,
      log: app.log,
      beacon: app.config.drawBeacon ? drandBeaconSource(app.config.drawBeacon) : null,
    });
    app.decorate("draws", draws);
    app.repositories.steps.beforeWrite = (days, now) => draws.closeBeforeWrite(days, now);

    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    const tick = () => {
      if (running) return;
      running = draws
        .tick()
        .catch((error: unknown) => app.log.warn({ err: error }, "draw: the scheduled job failed"))
        .finally(() => {
          running = undefined;
        });
    };
    app.addHook("onReady", async () => {
      if (options.tickMs === null) return;
      timer = setInterval(tick, options.tickMs ?? DRAW_TICK_MS);
      timer.unref();
    });
    app.addHook("onClose", async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: "draws", dependencies: ["config", "database", "mail"] },
);
