/**
 * AzuraCast's published schemas (tests/fixtures/azuracast/openapi-0.23.json) as validators: every
 * AzuraCast-shaped reply of DHR is checked against what AzuraCast itself documents.
 */
import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';

const FIXTURE = new URL('../fixtures/azuracast/openapi-0.23.json', import.meta.url);

/** OpenAPI 3.0's `nullable: true` as JSON Schema: the schema, or null. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, toJsonSchema(v)]));
  return nullable === true ? { anyOf: [converted, { type: 'null' }] } : converted;
}

const document = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { components: { schemas: Record<string, unknown> } };
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'azuracast', components: toJsonSchema(document.components) });

export type AzuraSchemaName =
  'Api_NowPlaying' | 'Api_NowPlaying_Station' | 'Api_NowPlaying_StationMount' | 'Api_NowPlaying_Listeners' | 'Api_Song' | 'Api_Time';

const validators = new Map<string, ValidateFunction>();

/** Throws with Ajv's errors unless `value` is valid against AzuraCast's schema (or an array of it). */
export function assertAzuraShape(name: AzuraSchemaName, value: unknown, opts: { array?: boolean } = {}): void {
  const key = `${name}${opts.array ? '[]' : ''}`;
  let validate = validators.get(key);
  if (!validate) {
    const ref = { $ref: `azuracast#/components/schemas/${name}` };
    validate = ajv.compile(opts.array ? { type: 'array', items: ref } : ref);
    validators.set(key, validate);
  }
  if (!validate(value)) throw new Error(`not a valid AzuraCast ${key}: ${ajv.errorsText(validate.errors)}`);
}
