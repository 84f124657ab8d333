import { APP_SERVER_POOL_ENV } from "./app-server.js";
import { startAppServerPool } from "./app-server-pool.js";
import { launchSharedChromium, SHARED_CHROMIUM_ENV } from "./chromium.js";

/**
 * What the run's test files share: the app server pool (see app-server-pool.ts), from which each
 * file gets a server of its own, and one Chromium, in which each file opens contexts of its own.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const [pool, browser] = await Promise.all([startAppServerPool(), launchSharedChromium()]);
  // Test files run in processes started after this, which inherit them.
  process.env[APP_SERVER_POOL_ENV] = pool.url;
  process.env[SHARED_CHROMIUM_ENV] = browser.wsEndpoint();
  return async () => {
    await browser.close();
    await pool.close();
  };
}
