import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const tracked = execFileSync('git', ['ls-files', 'src', 'tests', 'scripts', 'bench', 'lint'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f));

/**
 * A reader of the repository can open what a comment points to: docs/ and ADRs, public RFCs. A
 * section number of a document outside the repository, or an issue number, cannot be.
 */
const UNOPENABLE = /(?<!RFC ?\d{0,5} ?)§ ?\d|\bissue (?:item )?\d+/i;

describe('knowledge inside the repository', () => {
  it('no source cites a section number of an outside document or an issue number', () => {
    const found = tracked.flatMap((file) =>
      fs
        .readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (UNOPENABLE.test(line) && !/RFC ?\d+ ?§/.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it('the pattern catches what it is for', () => {
    // Built from pieces, so this file does not hold what it forbids.
    expect(UNOPENABLE.test(`// Spec ${'§'}7: the list`)).toBe(true);
    expect(UNOPENABLE.test(`/** done for ${'issue'} 12 */`)).toBe(true);
    expect(UNOPENABLE.test('// see docs/decisions/0017-news-ingestion-and-forum.md')).toBe(false);
  });

  it('web fetchers read replies as their contract types; only the listed ones check a reply with its schema', () => {
    // The server serializes every reply through its zod schema, and zod stays out of the listeners'
    // bundles (ADR 0010). These survive a malformed reply by design: the dashboard's figures become 0
    // and the members list says what was wrong, so they check the shape themselves; the System Status
    // page's test button exists to check a reply's shape.
    const checking = new Set([
      'src/web/features/admin/api/get-admin-stats.ts',
      'src/web/features/admin/api/get-download-stats.ts',
      'src/web/features/admin/api/get-users.ts',
      'src/web/features/admin/api/test-vip-mixes.ts',
    ]);
    const parsing = tracked
      .filter((f) => /^src\/web\/features\/[^/]+\/api\/[^/]+\.ts$/.test(f) && !f.endsWith('.test.ts'))
      .filter((f) => /Schema\.(?:safeParse|parse)\(/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    expect(parsing.filter((f) => !checking.has(f))).toEqual([]);
    expect([...checking].filter((f) => !parsing.includes(f))).toEqual([]);
  });

  it('every decision record carries a date and a status', () => {
    const dir = path.join(root, 'docs', 'decisions');
    const missing = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .filter((f) => !/^Date: \d{4}-\d{2}-\d{2} · Status: \S/m.test(fs.readFileSync(path.join(dir, f), 'utf8')));
    expect(missing).toEqual([]);
  });
});
