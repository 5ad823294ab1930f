import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const stripAnsi = (text: string) => stripVTControlCharacters(text);

// The guard in tests/support/app.ts: a deliberate unexpected 5xx fails its test; a declared one passes.
it('fails a test whose server answers a 5xx it did not expect', { timeout: 120_000 }, async () => {
  const run = promisify(execFile)(
    process.execPath,
    [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'tests/fixtures/server-trouble/vitest.config.ts', '--reporter', 'verbose'],
    {
      cwd: root,
      env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  const outcome = await run.then(
    (r) => ({ code: 0, output: stripAnsi(r.stdout + r.stderr) }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, output: stripAnsi(err.stdout + err.stderr) }),
  );
  expect(outcome.code).not.toBe(0);
  expect(outcome.output).toContain('The server had trouble the test did not expect');
  expect(outcome.output).toContain('GET /api/auth/me answered 503');
  expect(outcome.output).toMatch(/Tests\s+1 failed \| 1 passed/);
});
