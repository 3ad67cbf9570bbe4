/**
 * The harmless-edit campaign's largest move per lane, read from the table it writes
 * (`npm run gate:harmless -- --commit-results`, results/gate-harmless/harmless-edits.json, ADR 0071): one of the two
 * things a lane's threshold is derived from (baseline.ts, thresholdBasis). An edit whose probe bundle stayed
 * byte-identical moved nothing and counts no lane; only edits that changed the bundle carry moves.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { BaselineUnreadable } from './baseline.js';
import { INSTRUCTION_LANE_IDS } from './lanes.js';
import type { InstructionLaneId } from './lanes.js';

const HARMLESS_EDITS_FILE = join('results', 'gate-harmless', 'harmless-edits.json');

const CampaignSchema = z.object({
  head: z.string(),
  rows: z.array(
    z.object({
      name: z.string(),
      lanes: z.array(z.object({ lane: z.string(), move: z.number() })).optional(),
    }),
  ),
});

export interface HarmlessMoves {
  /** The file and the commit the campaign ran at, as the baseline records it; null when there is no campaign. */
  readonly source: string | null;
  readonly moves: Readonly<Record<InstructionLaneId, number>>;
}

/** Every lane's largest |move| over the campaign's edits; all 0 (and source null) when `root` holds no campaign. */
export async function harmlessMoves(root: string): Promise<HarmlessMoves> {
  const moves = Object.fromEntries(INSTRUCTION_LANE_IDS.map((id) => [id, 0])) as Record<InstructionLaneId, number>;
  let text: string;
  try {
    text = await readFile(join(root, HARMLESS_EDITS_FILE), 'utf8');
  } catch {
    return { source: null, moves };
  }
  let parsed: z.infer<typeof CampaignSchema>;
  try {
    parsed = CampaignSchema.parse(JSON.parse(text));
  } catch (error) {
    throw new BaselineUnreadable(
      `${HARMLESS_EDITS_FILE} is not a harmless-edit campaign table: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  for (const row of parsed.rows)
    for (const { lane, move } of row.lanes ?? [])
      if (lane in moves) moves[lane as InstructionLaneId] = Math.max(moves[lane as InstructionLaneId], Math.abs(move));
  return { source: `${HARMLESS_EDITS_FILE} at ${parsed.head.slice(0, 12)}`, moves };
}
