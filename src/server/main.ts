import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseLockedError } from './db/dir-lock';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }

  let app;
  try {
    app = await buildApp(config);
  } catch (err) {
    if (err instanceof DatabaseLockedError) {
      console.error(err.message);
      process.exit(3);
    }
    throw err;
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      // A second signal means "now".
      app.log.warn(`${signal} again: exiting immediately`);
      process.exit(1);
    }
    closing = true;
    app.log.info(`${signal}: finishing in-flight requests, then closing`);
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`Deep House Radio on ${config.PUBLIC_URL} (database: ${app.database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`})`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
