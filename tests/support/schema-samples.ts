import { z } from 'zod';
import { WRAPPER_TYPES } from './schema-strings';

/** Strings tried, in order, for a string field until its schema accepts one. */
const STRING_CANDIDATES = [
  'someone@example.test',
  'dhr1',
  '00000000-0000-4000-8000-000000000000',
  'https://example.test/page',
  'Plain words',
  '123456',
  '2030-01-01T00:00:00.000Z',
  '2030-01-01',
  'mixes/sample.mp3',
  'deep house',
  'deep-house',
  '/',
  'abcdefghijklmnopqrstuvwxyz012345',
  'a',
];
const NUMBER_CANDIDATES = [1, 5, 0, 30, 100, 1000];

/** A value `schema` accepts, built from the schema alone (undefined when none was found). */
export function sampleValue(schema: unknown): { value: unknown } | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const first = (candidates: readonly unknown[]) => {
    const hit = candidates.find((c) => schema.safeParse(c).success);
    return hit === undefined ? undefined : { value: hit };
  };
  if (WRAPPER_TYPES.has(def.type)) return sampleValue(def.innerType);
  switch (def.type) {
    case 'string':
      return first(STRING_CANDIDATES);
    case 'number':
    case 'bigint':
      return first(NUMBER_CANDIDATES);
    case 'boolean':
      return { value: true };
    case 'null':
      return { value: null };
    case 'enum':
      return first(Object.values(def.entries as Record<string, unknown>));
    case 'literal':
      return first(def.values as unknown[]);
    case 'pipe':
      return sampleValue(def.in);
    case 'union':
      for (const o of def.options as unknown[]) {
        const s = sampleValue(o);
        if (s && schema.safeParse(s.value).success) return s;
      }
      return undefined;
    case 'array': {
      if (schema.safeParse([]).success) return { value: [] };
      const el = sampleValue(def.element);
      return el ? { value: [el.value] } : undefined;
    }
    case 'record':
      return { value: {} };
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const s = sampleValue(v);
        if (s) out[k] = s.value;
      }
      return schema.safeParse(out).success ? { value: out } : undefined;
    }
    default:
      return undefined;
  }
}

/** The top-level fields of an object schema (through wrappers), with their schemas. */
export function objectFields(schema: unknown): Record<string, z.ZodType> {
  if (!(schema instanceof z.ZodType)) return {};
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (def.type === 'object') return def.shape as Record<string, z.ZodType>;
  if ('innerType' in def) return objectFields(def.innerType);
  if (def.type === 'pipe') return objectFields(def.in);
  return {};
}

/** C0 controls (tab, line feed and carriage return aside) and DEL: 30 characters the text rule refuses. */
export const CONTROL_CHARS = [...Array.from({ length: 32 }, (_, i) => i).filter((c) => c !== 9 && c !== 10 && c !== 13), 127].map((c) =>
  String.fromCharCode(c),
);

/** At least 30 values no field of any type may accept; each goes into one field of an otherwise good body. */
export const HOSTILE_VALUES: unknown[] = [
  ...CONTROL_CHARS.map((c) => `a${c}b@example.test`),
  '\u0000',
  '\ud800',
  'x\udfffy',
  'x'.repeat(200_000),
  `a@${'.'.repeat(50_000)} `,
  ['a\u0000b'],
  JSON.parse('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{}}}') as unknown,
  JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200)) as unknown,
];
