import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import type { ToolDefinition } from '../contracts/index.js';

/**
 * The sha-256 of a sorted catalogue's canonical text — `[` + each tool's
 * text joined by `,` + `]` (SPEC §1.7) — resumed from a recent catalogue
 * that shares a prefix with it (ADR 0074).
 *
 * sha-256 reads its input in order, so the state after any prefix of the
 * text is a function of that prefix alone. The text is hashed in chunks of
 * about CHUNK_CHARS, and the state before each chunk is kept (a `Hash.copy()`)
 * with the chunk's UTF-8 bytes. A catalogue whose first p tools are the very
 * objects of a recent one (registered definitions: their text is fixed)
 * starts from the state before the chunk holding tool p, and hashes from
 * there on; a later chunk whose tools are, position by position, the recent
 * one's is fed its kept bytes rather than built again. The value is the
 * sha-256 of exactly the same bytes a one-pass hash reads, so it is the same
 * hash.
 *
 * Only lists of registered definitions (deep-frozen, content-addressed) may
 * come here: identity stands for text only for them.
 */

/**
 * Characters of text per chunk. Each chunk costs one `Hash.copy()` (1–2 µs
 * here) and a change re-hashes on average half a chunk more than it must:
 * at ~64 K characters a 2,000-tool catalogue (984 K characters) has 16
 * chunks, so a change in the middle copies ~8 states and re-hashes ~32 K
 * characters it need not (~20 µs at the ~1.7 GB/s measured for `update` on
 * this machine, loaded).
 */
const CHUNK_CHARS = 64 * 1024;
/** Catalogues kept to resume from: a few users' catalogues over one set of tools, side by side. */
const RECENT_TEXTS = 4;
/** Bytes of kept chunks over all of them: at 10,000 tools one catalogue's text is ~5 MB. */
const RECENT_BYTES = 32 * 1024 * 1024;

interface Chunk {
  /** Tools [start, end) of the list, each preceded by `[` (the first) or `,`. */
  readonly start: number;
  readonly end: number;
  /** The state before this chunk; undefined for the first (a fresh hash). Never updated: only copied. */
  readonly before: Hash | undefined;
  /**
   * The chunk's text as built, hashed as it is (`update` encodes it itself: ~45 µs for 64 K characters built from
   * 130 tools' texts, against ~80 µs through `Buffer.from` first); its UTF-8 bytes are made the first time a later
   * list feeds it again, and kept instead (`update` of 64 KB of bytes: ~33 µs; node 20, this machine, loaded).
   */
  text: string | undefined;
  bytes: Buffer | undefined;
  readonly length: number;
}

interface HashedText {
  readonly list: readonly ToolDefinition[];
  readonly chunks: readonly Chunk[];
  /** The state after every chunk, before the closing `]`. */
  readonly end: Hash;
  /** Characters of text held (a chunk's bytes, once made, are as many: the text is mostly ASCII). */
  readonly bytes: number;
  readonly hex: string;
}

const recentTexts: HashedText[] = [];

/** What the checkpoints saved, for tests: structure, not time. */
export const checkpointCounts = {
  /** Tools whose text was read to build a chunk (the rest were skipped by a kept state or fed kept bytes). */
  toolsRead: 0,
  /** Chunks resumed past without hashing (their state was kept). */
  chunksSkipped: 0,
};

function commonPrefix(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a[i] === b[i]) i++;
  return i;
}

/** Whether tools [start, end) of `list` are, position by position, those of `known`. */
function sameRange(
  list: readonly ToolDefinition[],
  known: readonly ToolDefinition[],
  start: number,
  end: number,
): boolean {
  if (end > list.length) return false;
  for (let i = start; i < end; i++) if (list[i] !== known[i]) return false;
  return true;
}

/**
 * sha-256 hex of `[` + `textOf` of each of `list` joined by `,` + `]`.
 * `list` is sorted, free of duplicates, frozen, and holds registered
 * definitions only (the caller checks); `textOf` is the one canonical text
 * of a definition's published form.
 */
export function hashSortedText(
  list: readonly ToolDefinition[],
  textOf: (definition: ToolDefinition) => string,
): string {
  if (list.length === 0) return createHash('sha256').update('[]').digest('hex');
  // The recent list sharing the longest prefix; with none shared, the latest (a change to the first tool still leaves
  // the chunks after its own aligned).
  let base: HashedText | undefined;
  let prefix = -1;
  for (let r = recentTexts.length - 1; r >= 0; r--) {
    const candidate = recentTexts[r]!;
    // A list that shares more than `prefix` tools holds this list's tool at `prefix`: one comparison turns away the
    // rest (a turn whose one tool changed meets each older catalogue differing there, and skips its scan).
    if (prefix >= 0 && (prefix === list.length || candidate.list[prefix] !== list[prefix])) continue;
    const shared = commonPrefix(candidate.list, list);
    if (shared > prefix) {
      prefix = shared;
      base = candidate;
    }
  }
  // The very tools of a recent list: its hash.
  if (base !== undefined && prefix === list.length && prefix === base.list.length) return base.hex;
  const chunks: Chunk[] = [];
  let hash: Hash;
  let next = 0;
  /** The state before the chunk that starts at `next`, when it is a kept one (shared, never updated). */
  let resumedFrom: Hash | undefined;
  let k = 0;
  if (base === undefined) hash = createHash('sha256');
  else {
    // Every kept chunk wholly inside the shared prefix is this list's too: its bytes and the state before it.
    const known = base.chunks;
    while (k < known.length && known[k]!.end <= prefix) chunks.push(known[k++]!);
    checkpointCounts.chunksSkipped += k;
    resumedFrom = k < known.length ? known[k]!.before : base.end;
    next = k < known.length ? known[k]!.start : base.list.length;
    hash = resumedFrom === undefined ? createHash('sha256') : resumedFrom.copy();
  }
  let bytes = 0;
  for (const chunk of chunks) bytes += chunk.length;
  while (next < list.length) {
    const start = next;
    const before = start === 0 ? undefined : (resumedFrom ?? hash.copy());
    resumedFrom = undefined;
    // A later chunk of the base that starts here and holds the same tools: its bytes stand.
    while (base !== undefined && k < base.chunks.length && base.chunks[k]!.start < start) k++;
    const known = base?.chunks[k];
    let chunk: Chunk;
    if (known !== undefined && known.start === start && sameRange(list, base!.list, start, known.end)) {
      if (known.bytes === undefined) {
        known.bytes = Buffer.from(known.text!, 'utf8');
        known.text = undefined;
      }
      hash.update(known.bytes);
      chunk = { start, end: known.end, before, text: undefined, bytes: known.bytes, length: known.length };
    } else {
      // In place of a kept chunk that starts here, the same tools: the chunks after it stay aligned with the kept
      // ones (a changed tool's text may be longer or shorter), so their bytes stand.
      const until = known !== undefined && known.start === start ? Math.min(known.end, list.length) : list.length;
      let text = '';
      let end = start;
      while (end < until && (until !== list.length || text.length < CHUNK_CHARS)) {
        text += end === 0 ? '[' : ',';
        text += textOf(list[end]!);
        end++;
      }
      checkpointCounts.toolsRead += end - start;
      hash.update(text, 'utf8');
      chunk = { start, end, before, text, bytes: undefined, length: text.length };
    }
    chunks.push(chunk);
    bytes += chunk.length;
    next = chunk.end;
  }
  const endState = resumedFrom ?? hash.copy();
  const hex = hash.update(']').digest('hex');
  remember({ list, chunks, end: endState, bytes, hex });
  return hex;
}

function remember(text: HashedText): void {
  recentTexts.push(text);
  let bytes = 0;
  for (const held of recentTexts) bytes += held.bytes;
  while (recentTexts.length > RECENT_TEXTS || (recentTexts.length > 1 && bytes > RECENT_BYTES))
    bytes -= recentTexts.shift()!.bytes;
}
