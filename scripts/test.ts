// `npm test`: typecheck, lint, unit, component and API tests on PGlite, the API tests again on PostgreSQL,
// the build (web app and compiled server) and the browser tests. Suites that need something missing on this machine are
// skipped with a plain note of what installs it; under CI=true a skipped suite is a failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPostgresBin, POSTGRES_INSTALL_HINT } from '../tests/support/private-postgres';
import { run } from './lib/run';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dhr-test-'));

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
const failures: string[] = [];
/** Each failed test with the start of its message: printed last, so the tail of a CI log names them. */
const failedTests: string[] = [];
/** Whole suites this machine cannot run (a missing tool or server): failures under CI. */
const skippedSuites: string[] = [];
/** Single tests that skip themselves where they do not apply (e.g. PostgreSQL-only on PGlite). */
const skippedTests: string[] = [];

function has(bin: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => fs.existsSync(path.join(dir, bin)));
}

async function step(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n=== ${name} ===`);
  const code = await run(cmd, args, env);
  if (code !== 0) failures.push(name);
}

function firstLines(message = '', lines = 6): string {
  return message.split('\n').slice(0, lines).join('\n    ');
}

async function vitest(name: string, projects: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n=== ${name} ===`);
  const out = path.join(reportDir, `${name.replace(/\W+/g, '-')}.json`);
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
  const code = await run('npx', args, env);
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      numFailedTestSuites: number;
      numPendingTests: number;
      numTodoTests: number;
      testResults?: {
        name: string;
        message?: string;
        assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
      }[];
    };
    total.passed += r.numPassedTests;
    // A file that fails before its tests run (a failing beforeAll, an import error) counts as one failure.
    total.failed += r.numFailedTests > 0 ? r.numFailedTests : code !== 0 ? Math.max(1, r.numFailedTestSuites) : 0;
    total.skipped += r.numPendingTests + r.numTodoTests;
    for (const file of r.testResults ?? []) {
      const where = path.relative(process.cwd(), file.name);
      const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failed) failedTests.push(`${name}: ${where} > ${a.fullName}\n    ${firstLines(a.failureMessages?.[0])}`);
      if (failed.length === 0 && file.message) failedTests.push(`${name}: ${where}\n    ${firstLines(file.message)}`);
    }
    if (r.numPendingTests + r.numTodoTests > 0) skippedTests.push(`${name}: ${r.numPendingTests + r.numTodoTests} tests skipped`);
  }
  if (code !== 0) failures.push(name);
}

await step('typecheck', 'npx', ['tsc', '--noEmit', '-p', '.']);
// ESLint (with DHR's own rules), Prettier and the dead-code scan, as `npm run lint` runs them.
await step('lint', 'npm', ['run', '--silent', 'lint']);
await vitest('unit, component and API tests (PGlite)', ['unit', 'component', 'api']);

// The web app and the compiled server that `npm start` runs; the scale and browser suites use them.
await step('build', process.execPath, ['scripts/build.mjs']);

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  await vitest('API tests (PostgreSQL)', ['api'], { TEST_DATABASE_URL: pgUrl });
} else {
  skippedSuites.push('API tests on PostgreSQL: set TEST_DATABASE_URL=postgres://user:pass@127.0.0.1/postgres (a server where the user may CREATE DATABASE)');
}

// Two server processes behind nginx with deploy/nginx/dhr-locations.conf, on one PostgreSQL.
const hasNginx = has('nginx') || fs.existsSync('/usr/sbin/nginx');
if (pgUrl && hasNginx) await vitest('scale-out behind nginx (PostgreSQL)', ['scale'], { TEST_DATABASE_URL: pgUrl });
else skippedSuites.push(`the scale-out suite: needs ${pgUrl ? '' : 'TEST_DATABASE_URL and '}nginx (apt-get install -y nginx)`);

// The database-outage test starts a PostgreSQL server of its own (it stops and restarts it).
if (!findPostgresBin()) skippedSuites.push(`the database-outage test: ${POSTGRES_INSTALL_HINT}`);

const missing = [
  fs.existsSync(chromium) ? null : `Chromium (${chromium}): apt-get install -y chromium`,
  has('icecast2') ? null : 'icecast2: apt-get install -y icecast2',
  has('ffmpeg') ? null : 'ffmpeg: apt-get install -y ffmpeg',
].filter((m): m is string => m !== null);
for (const m of missing) skippedSuites.push(`suites needing ${m}`);
if (fs.existsSync(chromium) && !failures.includes('build')) {
  await vitest('browser tests (Chromium)', ['e2e']);
} else if (!fs.existsSync(chromium)) {
  console.log('\n=== browser tests: skipped (no Chromium) ===');
}

console.log('\n=== summary ===');
for (const s of skippedTests) console.log(`note: ${s}`);
for (const s of skippedSuites) console.log(`skipped: ${s}`);
for (const t of failedTests) console.log(`failed test: ${t}`);
for (const f of failures) console.log(`failed: ${f}`);
if (ci && skippedSuites.length > 0) {
  console.log('CI=true: a skipped suite counts as a failure.');
  failures.push('skipped suites under CI');
}
console.log(`tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
fs.rmSync(reportDir, { recursive: true, force: true });
process.exit(failures.length === 0 ? 0 : 1);
