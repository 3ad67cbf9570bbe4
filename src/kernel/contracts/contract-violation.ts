import type { z } from 'zod';

/**
 * The field paths one issue is about. zod reports an unknown key at the
 * object that holds it; naming the key itself is what tells a host that a
 * context was refused for carrying `grants`, not for being malformed somewhere.
 */
function issueFields(issue: z.core.$ZodIssue): string[] {
  const at = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => [...at, key].join('.'));
  return [at.length === 0 ? '(root)' : at.join('.')];
}

/**
 * The one error a trust boundary throws when material does not fit its
 * contract. It names the contract and every offending field path, so a host
 * reading a refusal can tell `actor.userId` from `grants[3].constraints`
 * without re-running zod itself.
 */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
  readonly contract: string;
  readonly fields: readonly string[];

  constructor(contract: string, issues: readonly z.core.$ZodIssue[]) {
    const located = issues.map((issue) => ({ issue, fields: issueFields(issue) }));
    const fields = located.flatMap((entry) => entry.fields);
    const detail = located
      .slice(0, 5)
      .map((entry) => `${entry.fields.join(', ')}: ${entry.issue.message}`)
      .join('; ');
    super(`${contract} is invalid: ${detail}${issues.length > 5 ? ` (+${issues.length - 5} more)` : ''}`);
    this.contract = contract;
    this.fields = fields;
  }
}

/** Parses `input` with `schema`, throwing a ContractViolation that names the contract. */
export function parseContract<T>(contract: string, schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new ContractViolation(contract, result.error.issues);
  return result.data;
}
