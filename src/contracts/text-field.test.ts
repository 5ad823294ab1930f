import { describe, expect, it } from 'vitest';
import { textField, usesTextRule } from './text-field';

describe('the one text rule', () => {
  const field = textField(100).trim();

  it('drops bidi overrides, isolates, marks and zero-width spaces from every text field', () => {
    expect(field.parse('evil\u202Etxt.exe')).toBe('eviltxt.exe');
    expect(field.parse('\u2067name\u2069')).toBe('name');
    expect(field.parse('bit\u200B.\u200Bly')).toBe('bit.ly');
    expect(field.parse('\uFEFFhello\u2060 there\u00AD')).toBe('hello there');
    expect(field.parse('\u200Fשלום\u200E')).toBe('שלום');
  });

  it('keeps the joiners that emoji and Persian spelling need', () => {
    expect(field.parse('👩\u200D🎤')).toBe('👩\u200D🎤');
    expect(field.parse('می\u200Cخواهم')).toBe('می\u200Cخواهم');
  });

  it('still refuses control characters and checks length first', () => {
    expect(field.safeParse('a\u0000b').success).toBe(false);
    expect(field.safeParse('x'.repeat(101)).success).toBe(false);
    expect(usesTextRule(textField(10))).toBe(true);
  });
});
