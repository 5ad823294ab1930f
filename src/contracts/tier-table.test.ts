import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PLEDGE_BANDS, tierForPledgeCents } from './tier-policy';
import { PAID_TIERS, TIER_TABLE } from './tier-table';
import { TIERS } from './tiers';

/**
 * A tier's name or price is typed once, in tier-table.ts. This walks every source file of src
 * (tests and the table itself aside) and fails on a string literal, template text or JSX text that
 * writes a paid tier's price ('€10', '€5+', '10 EUR', '3 euro') or names a paid tier ('DHR1',
 * 'DHR2', 'VIP'). Comments are not read. Such text is built from the table instead
 * (`tierLabel('vip')`, `TIER_TABLE.vip.priceEur` with formatPrice on the web).
 */

const SRC = join(import.meta.dirname, '..');
const TABLE_FILE = join('contracts', 'tier-table.ts');

/**
 * The allowed exceptions, in one place: phrases where a tier's name is part of another thing's
 * name. Each phrase is cut out of a text before it is checked; the rest of the text still counts.
 */
export const ALLOWED_PHRASES: readonly { phrase: RegExp; why: string }[] = [
  { phrase: /\bDHR1 Premium\b/g, why: "the dhr1 channel's name (its row in the channels table)" },
  { phrase: /\bDHR2 Exclusive\b/g, why: "the dhr2 channel's name (its row in the channels table)" },
  { phrase: /\bDHR2 Live\b/g, why: "the dhr2 player's fallback artist while its stream connects" },
  {
    phrase: /\bVIP (Mix Library|mix library|library|Mixes|mixes|mix|Content|Page|admin)\b/g,
    why: 'the VIP mix library and its admin pages, a product named after the tier',
  },
];

const labels = PAID_TIERS.map((t) => TIER_TABLE[t].label);
const prices = [...new Set(PAID_TIERS.map((t) => TIER_TABLE[t].priceEur))];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const priceAlternatives = prices.map((p) => `${escape(String(p))}(?:[.,]00?)?`).join('|');
/** '€10', '€ 5+', '€3.00', '10 EUR', 'EUR 10', '5 euro', '10€'; not '€10.50', '€100' or '2024 EUR'. */
const PRICE = new RegExp(
  [
    `€\\s?(?:${priceAlternatives})(?!\\d|[.,]\\d)`,
    `(?<![\\d.,])(?:${priceAlternatives})\\s?(?:€|EUR\\b|euros?\\b)`,
    `\\bEUR\\s?(?:${priceAlternatives})(?!\\d|[.,]\\d)`,
  ].join('|'),
  'i',
);
/** A tier's name as a word: 'VIP', 'DHR1+', '(DHR2)'; not 'vip' (the id), 'VIPs' or '/dhr1'. */
const LABEL = new RegExp(`(?<![\\w/-])(?:${labels.map(escape).join('|')})(?![\\w-])`);

/** What a text says about tiers that it should take from the table, or null. */
export function tierLiteralProblem(text: string): string | null {
  const price = PRICE.exec(text);
  if (price) return `a tier price '${price[0]}'`;
  const rest = ALLOWED_PHRASES.reduce((t, a) => t.replace(a.phrase, ' '), text);
  const label = LABEL.exec(rest);
  return label ? `a tier name '${label[0]}'` : null;
}

/** The texts of a file: string literals, template pieces and JSX text, with their line numbers. */
function textsOf(file: string, source: string): { line: number; text: string }[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      found.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('the tier table', () => {
  it('has one row per tier, under its id, dearer and needing a larger pledge up the ladder', () => {
    for (const [i, tier] of TIERS.entries()) {
      const row = TIER_TABLE[tier];
      expect(row.id).toBe(tier);
      const below = TIERS[i - 1];
      if (below) {
        expect(row.priceEur).toBeGreaterThan(TIER_TABLE[below].priceEur);
        expect(row.pledgeMinCents).toBeGreaterThan(TIER_TABLE[below].pledgeMinCents);
      }
    }
  });

  it('gives the pledge bands: each paid tier from its pledge minimum, below the cheapest is free', () => {
    expect(PLEDGE_BANDS.map((b) => b.tier)).toEqual([...PAID_TIERS].reverse());
    for (const tier of PAID_TIERS) {
      const min = TIER_TABLE[tier].pledgeMinCents;
      expect(tierForPledgeCents(min)).toBe(tier);
      expect(tierForPledgeCents(min - 1)).not.toBe(tier);
    }
    expect(tierForPledgeCents(0)).toBe('free');
  });
});

describe('the tier table is the one place a tier is named or priced', () => {
  it('finds no tier price or tier name typed outside src/contracts/tier-table.ts', () => {
    const problems: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = relative(SRC, file);
      if (rel === TABLE_FILE) continue;
      for (const { line, text } of textsOf(file, readFileSync(file, 'utf8'))) {
        const problem = tierLiteralProblem(text);
        if (problem) problems.push(`src${sep}${rel}:${line}: ${problem} in ${JSON.stringify(text.trim().slice(0, 120))}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('catches a deliberate violation and passes what it allows', () => {
    // A small fixture file, read the way the walk reads src.
    const fixture = [
      "const band = '€10+';",
      'const badge = <span>VIP</span>;',
      'const line = `Upgrade to DHR2 (${price}) today`;',
      "const pledge = 'at least 5 EUR a month';",
      "const title = 'VIP Mix Library';",
      "const channel = { name: 'DHR1 Premium', path: '/dhr1', id: 'vip' };",
      "const shop = 'Tote bag €10.50, vinyl €100';",
      '// VIP members pay €10: comments are not read',
    ].join('\n');
    const texts = textsOf('fixture.tsx', fixture);
    expect(texts.map((t) => [t.line, tierLiteralProblem(t.text)]).filter(([, p]) => p !== null)).toEqual([
      [1, "a tier price '€10'"],
      [2, "a tier name 'VIP'"],
      [3, "a tier name 'DHR2'"],
      [4, "a tier price '5 EUR'"],
    ]);
    expect(tierLiteralProblem('VIP Mix Library for VIP members')).toBe("a tier name 'VIP'");
  });
});
