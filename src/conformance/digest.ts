/**
 * What a report judged, by hash. Two reports can disagree for two reasons —
 * the kernel changed, or the suite did — and these hashes tell them apart.
 */
import { canonicalJson, sha256Hex } from '../kernel/index.js';
import { CASES } from './cases.js';
import type { CaseDeclaration } from './cases.js';
import { CONDITIONS } from './conditions.js';
import type { ConditionDeclaration } from './conditions.js';
import { CONFORMANCE_WORLD } from './world/conformance-world.js';
import type { WorldDeclaration } from './world/world-declaration.js';

export interface SuiteDigest {
  /** sha-256 of the canonical case set: cases and the conditions their rows run under. */
  readonly caseSet: string;
  /** sha-256 of the canonical world declaration. */
  readonly world: string;
}

export function suiteDigest(
  cases: readonly CaseDeclaration[] = CASES,
  conditions: readonly ConditionDeclaration[] = CONDITIONS,
  world: WorldDeclaration = CONFORMANCE_WORLD,
): SuiteDigest {
  return {
    caseSet: sha256Hex(canonicalJson({ cases, conditions })),
    world: sha256Hex(canonicalJson(world)),
  };
}
