/**
 * Conditions: how a row's world is armed before (and, at a move's `arm`
 * step, during) its move. Arming is trusted setup — the host's own hand on
 * its grant table, its providers and its audit sink — and never travels on
 * the path being judged. Declared as data so a child process can arm the same
 * world from a condition's id.
 */

/** How the world's GrantSource answers. */
export type GrantSourceBehaviour = 'steady' | 'throws' | 'answers-garbage' | 'answers-for-another-namespace';

/**
 * How the world's providers answer. `moves-after-first-resolution`: the declared ceiling's action becomes `administer`
 * after the first resolution.
 */
export type ProviderBehaviour = 'steady' | 'throws' | 'moves-after-first-resolution';

type AuditSinkBehaviour = 'steady' | 'throws';

interface GrantConstraintPatch {
  /** The grant expires this long after the world's epoch. */
  readonly expiresAfterMs?: number;
  readonly maxUses?: number;
}

export interface ConditionDeclaration {
  readonly id: string;
  readonly summary: string;
  readonly grantConstraints?: Readonly<Record<string, GrantConstraintPatch>>;
  readonly grantSource?: GrantSourceBehaviour;
  readonly provider?: ProviderBehaviour;
  readonly auditSink?: AuditSinkBehaviour;
  /** Setup the move triggers at its `arm` step: a revocation recorded at that instant. */
  readonly atArm?: { readonly revokeGrant: string };
}

const MINUTE = 60_000;

export const CONDITIONS: readonly ConditionDeclaration[] = [
  { id: 'baseline', summary: 'the world as declared' },
  {
    id: 'grant-expires-mid-turn',
    summary: 'g-files-read expires 30 minutes after the epoch; the move advances the clock past it',
    grantConstraints: { 'g-files-read': { expiresAfterMs: 30 * MINUTE } },
  },
  {
    id: 'revocation-recorded',
    summary: "the host records g-files-read's revocation at the move's arm step",
    atArm: { revokeGrant: 'g-files-read' },
  },
  {
    id: 'bounded-grant',
    summary: 'g-files-share may be used once',
    grantConstraints: { 'g-files-share': { maxUses: 1 } },
  },
  { id: 'grant-source-throws', summary: 'the GrantSource throws', grantSource: 'throws' },
  {
    id: 'grant-source-answers-garbage',
    summary: 'the GrantSource answers something that is not a list of grants',
    grantSource: 'answers-garbage',
  },
  {
    id: 'grant-source-crosses-namespace',
    summary: "the GrantSource answers a grant for another tenant's namespace",
    grantSource: 'answers-for-another-namespace',
  },
  { id: 'provider-throws', summary: 'the notion provider throws', provider: 'throws' },
  { id: 'audit-sink-throws', summary: 'the audit sink refuses every write', auditSink: 'throws' },
  {
    id: 'provider-moves-mid-turn',
    summary:
      "the notion provider publishes notion.search needing `search` at the turn's first resolution, " +
      '`administer` at every later one',
    provider: 'moves-after-first-resolution',
  },
];

export function conditionById(id: string): ConditionDeclaration {
  const condition = CONDITIONS.find((c) => c.id === id);
  if (condition === undefined) throw new RangeError(`unknown conformance condition '${id}'`);
  return condition;
}
