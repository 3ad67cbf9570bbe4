import type { z } from 'zod';

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
    const fields = issues.map((issue) => (issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.')));
    const detail = issues
      .slice(0, 5)
      .map((issue, i) => `${fields[i]}: ${issue.message}`)
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
