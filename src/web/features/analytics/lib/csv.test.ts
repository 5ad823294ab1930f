import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe("a chart's CSV", () => {
  it('quotes commas and quotes, and defuses formulas', () => {
    expect(
      toCsv(
        ['day', 'value'],
        [
          ['2026-11-01', 1.5],
          ['a,"b"', -2],
          ['=SUM(A1)', 0],
        ],
      ),
    ).toBe('day,value\r\n2026-11-01,1.5\r\n"a,""b""",-2\r\n\'=SUM(A1),0\r\n');
  });
});
