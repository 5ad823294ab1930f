import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envSchema } from '../src/server/config';
import { benchmarksPage, configurationPage, driftOf, readBenchResults, registeredRoutes, routesPage } from './lib/generated-docs';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const decisions = fs
  .readdirSync(path.join(root, 'docs', 'decisions'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/decisions/${f}`);
/** The prose a person writes: README, docs/ (the generated pages aside) and the ADRs. */
const handWritten = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...decisions,
].filter((f) => !['docs/configuration.md', 'docs/routes.md', 'docs/benchmarks.md'].includes(f));

describe('generated docs match the code (npm run docs)', () => {
  it('docs/configuration.md is the config schema', () => {
    expect(driftOf([configurationPage(envSchema)])).toEqual([]);
  });

  it('docs/routes.md is the route table', async () => {
    expect(driftOf([routesPage(await registeredRoutes())])).toEqual([]);
  }, 60_000);

  it('docs/benchmarks.md is bench/results.json', () => {
    expect(driftOf([benchmarksPage(readBenchResults())])).toEqual([]);
  });

  it('reports a deliberate drift with the file and line (fixture)', () => {
    const page = configurationPage(envSchema);
    const edited = page.text.replace('| `PORT` | number | `3000` |', '| `PORT` | number | `8080` |');
    const drift = driftOf([page], () => edited);
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatch(/^docs\/configuration\.md differs from the code at line \d+: run npm run docs/);
    expect(driftOf([page], () => null)).toEqual(['docs/configuration.md is missing: run npm run docs']);
  });

  it('refuses a variable without a meaning (fixture)', () => {
    expect(() => configurationPage(z.object({ UNDOCUMENTED: z.string().optional() }))).toThrow(/UNDOCUMENTED has no description/);
  });
});

describe('hand-written docs stay short and true', () => {
  it('README.md is at most 15 KB and names the two set-up commands', () => {
    const readme = read('README.md');
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm install && npm test');
  });

  it('every ADR has its decision, reasons and consequences in under 150 lines, and says when it is superseded', () => {
    const problems: string[] = [];
    for (const file of decisions) {
      const text = read(file);
      const lines = text.split('\n').length;
      if (lines >= 150) problems.push(`${file}: ${lines} lines`);
      if (!/^# /m.test(text)) problems.push(`${file}: no title`);
      // A later ADR that supersedes this one must be named in it.
      for (const other of decisions) {
        const m = new RegExp(`[Ss]upersedes (?:ADR )?${path.basename(file).slice(0, 4)}\\b`).exec(read(other));
        if (m && !/[Ss]uperseded/.test(text)) problems.push(`${file}: superseded by ${other} but not marked so`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every file the docs name exists', () => {
    const missing: string[] = [];
    for (const file of handWritten) {
      for (const match of read(file).matchAll(/\b(?:src|scripts|tests|bench|deploy|docs|lint)\/[A-Za-z0-9_./@-]+/g)) {
        const named = match[0].replace(/[.,:;)]+$/, '');
        if (/NNNN/.test(named)) continue; // a pattern for new files, not a file
        if (fs.existsSync(path.join(root, named))) continue;
        // A prefix such as docs/decisions/0021 names the one file that starts with it.
        const dir = path.dirname(named);
        if (fs.existsSync(path.join(root, dir)) && fs.readdirSync(path.join(root, dir)).some((f) => f.startsWith(path.basename(named)))) continue;
        missing.push(`${file}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('quotes no bench figure outside docs/benchmarks.md (README and docs/; the ADRs record what was measured when they were decided)', () => {
    const quoted: string[] = [];
    for (const file of handWritten.filter((f) => !f.startsWith('docs/decisions/'))) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          if (/\b(p50|p95|p99|rps|req\/s|requests per second)\b[^|]*\d/i.test(line) || /\b0\.\d\d\b.{0,20}\bof (bare )?node/i.test(line)) {
            quoted.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
          }
        });
    }
    expect(quoted).toEqual([]);
  });
});
