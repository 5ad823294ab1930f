import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { expect, it } from 'vitest';
import { canRunBrowser } from '../support/browser';

const root = path.resolve(import.meta.dirname, '../..');

// The guard in tests/support/browser.ts: a deliberate console error fails its test; a declared one passes.
it.skipIf(!canRunBrowser)('fails a browser test whose page logs a console error it did not expect', { timeout: 180_000 }, async () => {
  const run = promisify(execFile)(
    process.execPath,
    [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'tests/fixtures/page-trouble/vitest.config.ts', '--reporter', 'verbose'],
    {
      cwd: root,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  const outcome = await run.then(
    (r) => ({ code: 0, output: stripVTControlCharacters(r.stdout + r.stderr) }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, output: stripVTControlCharacters(err.stdout + err.stderr) }),
  );
  expect(outcome.code).not.toBe(0);
  expect(outcome.output).toContain('The pages had errors the test did not expect');
  expect(outcome.output).toContain('console error: a deliberate console error');
  expect(outcome.output).toMatch(/Tests\s+1 failed \| 1 passed/);
});
