import { z } from 'zod';
import { usesTextRule } from '../../src/contracts/text-field';

/** A string inside a request schema: where it sits and whether it goes through the text rule. */
export interface SchemaString {
  path: string;
  ruled: boolean;
}

/** Zod types that wrap one inner schema (`def.innerType`). */
export const WRAPPER_TYPES: ReadonlySet<string> = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** Every string schema reachable from `schema` (objects, arrays, unions, wrappers, pipes, records). */
export function schemaStrings(schema: unknown, path = '', seen = new Set<unknown>()): SchemaString[] {
  if (!(schema instanceof z.ZodType) || seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const walk = (s: unknown, p: string) => schemaStrings(s, p, seen);
  if (WRAPPER_TYPES.has(def.type)) return walk(def.innerType, path);
  switch (def.type) {
    case 'string':
      return [{ path: path || '(root)', ruled: usesTextRule(schema) }];
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>)
        .flatMap(([k, v]) => walk(v, path ? `${path}.${k}` : k))
        .concat(walk(def.catchall, `${path}.*`));
    case 'array':
      return walk(def.element, `${path}[]`);
    case 'union':
      return (def.options as unknown[]).flatMap((o) => walk(o, path));
    case 'intersection':
      return [...walk(def.left, path), ...walk(def.right, path)];
    case 'record':
      return [...walk(def.keyType, `${path}{key}`), ...walk(def.valueType, `${path}{}`)];
    case 'tuple':
      return (def.items as unknown[]).flatMap((o, i) => walk(o, `${path}[${i}]`));
    case 'pipe': {
      // What a pipe's output stage sees was already checked by its input stage.
      const input = walk(def.in, path);
      return input.length ? input : walk(def.out, path);
    }
    case 'lazy':
      return walk((def.getter as () => unknown)(), path);
    default:
      return [];
  }
}
