/**
 * `results/baseline.json`: the instruction counts and structural figures the
 * CI gate compares the working tree against. Refreshed only on purpose
 * (`costlab gate --update-baseline`), in a commit of its own, so a reviewer
 * sees the kernel's cost move in the diff.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { GateError } from './gate-error.js';

export const BASELINE_SCHEMA_VERSION = 1;

const InstructionFigureSchema = z.strictObject({
  /** Instructions per turn: (count(N) − count(0)) / N. */
  perTurn: z.number().positive(),
  iterations: z.number().int().positive(),
});

export const BaselineSchema = z.strictObject({
  schemaVersion: z.literal(BASELINE_SCHEMA_VERSION),
  commit: z.string(),
  createdAt: z.string(),
  command: z.string(),
  environment: z.strictObject({ node: z.string(), v8: z.string(), arch: z.string(), valgrind: z.string() }),
  strategy: z.literal('turn'),
  instructions: z.strictObject({ catalogue: InstructionFigureSchema, call: InstructionFigureSchema }),
});
export type Baseline = z.infer<typeof BaselineSchema>;

export class BaselineUnreadable extends GateError {
  readonly code = 'BaselineUnreadable';
}

export async function readBaseline(path: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new BaselineUnreadable(`no baseline at ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}); create one with: costlab gate --update-baseline`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BaselineUnreadable(`${path} is not JSON`);
  }
  const parsed = BaselineSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BaselineUnreadable(`${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

export async function writeBaseline(path: string, baseline: Baseline): Promise<void> {
  await writeFile(path, `${JSON.stringify(BaselineSchema.parse(baseline), null, 2)}\n`);
}
