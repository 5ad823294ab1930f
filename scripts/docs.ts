/**
 * `npm run docs`: writes the generated pages of docs/ (configuration, routes, benchmarks) from the
 * code. `npm run docs -- --check` only compares and exits 1 on drift (the unit suite does the same).
 */
import { envSchema } from '../src/server/config';
import { benchmarksPage, configurationPage, driftOf, readBenchResults, registeredRoutes, routesPage, writePages } from './lib/generated-docs';

const pages = [configurationPage(envSchema), routesPage(await registeredRoutes()), benchmarksPage(readBenchResults())];
if (process.argv.includes('--check')) {
  const drift = driftOf(pages);
  for (const line of drift) console.error(line);
  process.exitCode = drift.length ? 1 : 0;
} else {
  writePages(pages);
  console.log(`Wrote ${pages.map((p) => p.file).join(', ')}.`);
}
