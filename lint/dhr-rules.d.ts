import type { Rule } from 'eslint';

export const dhrRules: Record<
  | 'boundaries'
  | 'module-cycles'
  | 'table-ownership'
  | 'sql-in-repositories'
  | 'no-timers-in-routes'
  | 'outbound-http-only'
  | 'no-outbound-in-transaction'
  | 'no-module-decorators'
  | 'routes-in-routes-files',
  Rule.RuleModule
>;

export interface TableOwnership {
  schemaFile: string;
  owner: string | undefined;
  reads: Set<string>;
  writes: Set<string>;
}
export function readTableOwnership(dir?: string): Map<string, TableOwnership>;
