/**
 * What a turn did, counted rather than timed: the kernel's exact counters read
 * as differences around each turn. These are the lane of regression flagging
 * that no machine noise can move — under `turn` a second derivation in a turn
 * is a bug whatever the clock says.
 */
import { publishTool } from '../../src/kernel/index.js';
import type { ListedCatalogue, PublishedTool } from '../../src/kernel/index.js';
import type { Structural } from '../results/results-schema.js';
import { COUNTED } from '../probes/kernel-counters.js';
import type { Counted } from '../probes/kernel-counters.js';

/** The catalogue a turn was shown, sized. */
export interface CatalogueShown {
  readonly tools: number;
  /**
   * Bytes of the published form of each kept definition (what `tools/list`
   * carries and catalogHash names), as compact UTF-8 JSON. The published
   * kernel printed 9103 bytes for its 17 tools.
   */
  readonly bytes: number;
  readonly catalogHash: string;
}

/** Sizes a kernel listing by its published form. */
export function shownOf(listed: ListedCatalogue): CatalogueShown {
  return shownOfPublished(listed.tools.map(publishTool), listed.catalogHash);
}

/** Sizes a catalogue already in published form (what an MCP bridge serves). */
export function shownOfPublished(tools: readonly PublishedTool[], catalogHash: string): CatalogueShown {
  return { tools: tools.length, bytes: Buffer.byteLength(JSON.stringify(tools), 'utf8'), catalogHash };
}

/** A turn whose catalogue differed from the first measured turn's: the footprint would average two worlds. */
class CatalogueChanged extends Error {
  override readonly name = 'CatalogueChanged';
}

/** Sums counter differences over measured turns; the footprint is their per-turn mean. */
export class StructuralTally {
  #turns = 0;
  readonly #totals: Counted = {
    authorityLoads: 0,
    derivations: 0,
    providerCalls: 0,
    decisions: 0,
    auditEvents: 0,
    invocations: 0,
  };
  #catalogue: CatalogueShown | undefined;
  /** Per-turn derivations, kept whole so an exact check can say which turn broke it. */
  readonly derivationsByTurn: number[] = [];

  /** Adds one turn: counters before and after it, and the catalogue it was shown (sized on the first turn only). */
  add(before: Counted, after: Counted, catalogHash: string, size: () => CatalogueShown): void {
    this.#turns++;
    for (const key of COUNTED) this.#totals[key] += after[key] - before[key];
    this.derivationsByTurn.push(after.derivations - before.derivations);
    if (this.#catalogue === undefined) {
      this.#catalogue = size();
    } else if (this.#catalogue.catalogHash !== catalogHash) {
      throw new CatalogueChanged(
        `turn ${this.#turns} listed catalogue ${catalogHash.slice(0, 12)}…, the first measured ` +
          `turn ${this.#catalogue.catalogHash.slice(0, 12)}…`,
      );
    }
  }

  get turns(): number {
    return this.#turns;
  }

  get catalogHash(): string | undefined {
    return this.#catalogue?.catalogHash;
  }

  footprint(): Structural {
    const turns = this.#turns;
    if (turns === 0 || this.#catalogue === undefined) throw new RangeError('no measured turns were tallied');
    const perTurn = (key: keyof Counted): number => Math.round((this.#totals[key] / turns) * 1e6) / 1e6;
    return {
      authorityLoadsPerTurn: perTurn('authorityLoads'),
      derivationsPerTurn: perTurn('derivations'),
      providerCallsPerTurn: perTurn('providerCalls'),
      decisionsPerTurn: perTurn('decisions'),
      auditEventsPerTurn: perTurn('auditEvents'),
      callsPerTurn: perTurn('invocations'),
      catalogueTools: this.#catalogue.tools,
      catalogueBytes: this.#catalogue.bytes,
    };
  }
}
