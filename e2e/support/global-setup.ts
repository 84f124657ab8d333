import { APP_SERVER_POOL_ENV } from "./app-server.js";
import { startAppServerPool } from "./app-server-pool.js";

/** The run's app server pool (see app-server-pool.ts), for every test file's `startAppServer`. */
export default async function setup(): Promise<() => Promise<void>> {
  const pool = await startAppServerPool();
  // Test files run in processes started after this, which inherit it.
  process.env[APP_SERVER_POOL_ENV] = pool.url;
  return () => pool.close();
}
