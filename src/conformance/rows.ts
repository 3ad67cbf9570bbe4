import { CASES } from './cases.js';
import type { CaseDeclaration } from './cases.js';
import { CONDITIONS, conditionById } from './conditions.js';
import type { ConditionDeclaration } from './conditions.js';
import { capabilitiesNeeded } from './move.js';
import type { ColumnCapability } from './move.js';

/** A case under one condition: the unit a report has one line for. */
export interface Row {
  /** The case id, suffixed `@condition` when a case runs under more than one condition. */
  readonly id: string;
  readonly case: CaseDeclaration;
  readonly condition: ConditionDeclaration;
  readonly needs: ReadonlySet<ColumnCapability>;
}

export function rowsOf(cases: readonly CaseDeclaration[] = CASES): Row[] {
  const rows: Row[] = [];
  for (const declared of cases) {
    for (const conditionId of declared.conditions) {
      rows.push({
        id: declared.conditions.length === 1 ? declared.id : `${declared.id}@${conditionId}`,
        case: declared,
        condition: conditionById(conditionId),
        needs: capabilitiesNeeded(declared.move),
      });
    }
  }
  return rows;
}

export function rowById(id: string, cases: readonly CaseDeclaration[] = CASES): Row {
  const row = rowsOf(cases).find((r) => r.id === id);
  if (row === undefined) throw new RangeError(`unknown conformance row '${id}'`);
  return row;
}

/** Every condition a case set uses must be declared: checked once, so a typo fails loudly. */
export function unusedConditions(cases: readonly CaseDeclaration[] = CASES): string[] {
  const used = new Set(cases.flatMap((c) => c.conditions));
  return CONDITIONS.map((c) => c.id).filter((id) => !used.has(id));
}
