import { APP_SERVER_POOL_ENV } from "./app-server.js";
import { startAppServerPool } from "./app-server-pool.js";

/**
 * What the run's test files share: the app server pool (see app-server-pool.ts), from which each
 * file gets a server of its own.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const pool = await startAppServerPool();
  // Test files run in processes started after this, which inherit it.
  process.env[APP_SERVER_POOL_ENV] = pool.url;
  return async () => {
    await pool.close();
  };
}
