/**
 * The kernel's exact counters read as a snapshot, so a difference around a
 * turn says what the turn did: the probe's per-turn counts and the staircase's
 * structural footprint (bench/staircase/structural.ts) both take them here.
 */
import type { KernelCounters } from '../../src/kernel/index.js';

/** The counters a structural footprint is made from. */
export type Counted = Pick<
  KernelCounters,
  'authorityLoads' | 'derivations' | 'providerCalls' | 'decisions' | 'auditEvents' | 'invocations'
>;

export const COUNTED: readonly (keyof Counted)[] = [
  'authorityLoads',
  'derivations',
  'providerCalls',
  'decisions',
  'auditEvents',
  'invocations',
];

export function snapshotCounters(counters: Readonly<KernelCounters>): Counted {
  return {
    authorityLoads: counters.authorityLoads,
    derivations: counters.derivations,
    providerCalls: counters.providerCalls,
    decisions: counters.decisions,
    auditEvents: counters.auditEvents,
    invocations: counters.invocations,
  };
}
