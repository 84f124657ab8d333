import closeWithGrace from "close-with-grace";
import { buildApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(78); // EX_CONFIG
  }
  throw error;
}

const app = await buildApp(config);

// SIGTERM/SIGINT: stop accepting requests, finish those under way, close the database, exit.
closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "shutting down after an uncaught error");
  else app.log.info({ signal }, "shutting down");
  await app.close();
});

await app.listen({ port: config.port, host: config.host });
app.log.info(
  { publicUrl: config.publicUrl, database: app.database.dialect, signIn: config.oidc.kind },
  `Charity Steps is ready at ${config.publicUrl}`,
);
