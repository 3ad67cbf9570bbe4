/**
 * Where the published figures come from, and what to say when they are missing.
 * A report without them is still useful (history, segments), so a missing or
 * unreadable anchors file degrades the page with a visible note instead of failing.
 */
import { readFile } from 'node:fs/promises';
import { parseAnchorFigures, type AnchorFigures } from '../results/results-schema.js';

export type AnchorSource =
  | { readonly status: 'loaded'; readonly path: string; readonly figures: AnchorFigures }
  | { readonly status: 'absent'; readonly path: string; readonly reason: string };

/** Reads and validates the anchor figures file; never throws. */
export async function loadAnchorSource(filePath: string): Promise<AnchorSource> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'file not found' : (error as Error).message;
    return { status: 'absent', path: filePath, reason };
  }
  try {
    return { status: 'loaded', path: filePath, figures: parseAnchorFigures(JSON.parse(text)) };
  } catch (error) {
    return { status: 'absent', path: filePath, reason: (error as Error).message };
  }
}

/** The published figures, or undefined when the report runs without them. */
export function publishedFigures(source: AnchorSource): AnchorFigures | undefined {
  return source.status === 'loaded' ? source.figures : undefined;
}
