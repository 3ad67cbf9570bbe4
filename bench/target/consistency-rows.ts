/**
 * Catalogue consistency: the conformance idea, for any MCP server. A probe
 * talks to the target as each configured identity and keeps what it saw;
 * the judge below turns those observations into rows, each with a verdict
 * and the frames behind it. The judge is pure, so each rule is tested on
 * observations directly and on real servers through the probe.
 */
import { canonicalJson } from '../../src/kernel/index.js';
import { matchesToolPattern } from './target-config.js';
import type { ResolvedIdentity } from './target-config.js';
import { schemaProblems } from './schema-check.js';
import type { TappedFrame } from './frame-tap.js';
import { frameBytes } from './frame-tap.js';
import type { Redactor } from './secrets.js';

export type RowVerdict = 'pass' | 'fail' | 'warn' | 'not_applicable' | 'error';

export const CLIENT_TOOL_LIMIT = 128;

export interface EvidenceFrame {
  readonly identity: string;
  readonly seq: number;
  readonly direction: 'sent' | 'received';
  readonly method: string | undefined;
  readonly bytes: number;
  /** The frame's JSON, cut to a readable length. */
  readonly excerpt: string;
}

export interface ConsistencyRow {
  readonly id: RowId;
  readonly title: string;
  readonly verdict: RowVerdict;
  readonly detail: string;
  readonly evidence: readonly EvidenceFrame[];
}

export const ROW_TITLES = {
  'listing-stable': 'the listing is identical across repeated tools/list unless list_changed came first',
  'list-changed-false-honoured': 'a server declaring listChanged: false never changes its listing mid-session',
  'unlisted-name-refused': 'a call to a name not in the listing is refused',
  'identity-differences-allowed': "two identities' listings differ only where the config allows",
  'cache-scope-private': 'list results with ttlMs/cacheScope are private whenever listings differ by identity',
  'input-schemas-valid': 'every inputSchema is a valid JSON Schema object',
  'tool-count-within-client-limit': `at most ${CLIENT_TOOL_LIMIT} tools (clients refuse more)`,
} as const;
export type RowId = keyof typeof ROW_TITLES;
export const ROW_IDS = Object.keys(ROW_TITLES) as RowId[];

/** One `tools/list` as one identity saw it. */
export interface ListingSeen {
  readonly tools: readonly Record<string, unknown>[];
  readonly result: Record<string, unknown>;
  /** list_changed notifications received before this listing was asked for. */
  readonly noticesBefore: number;
  readonly frame: TappedFrame | undefined;
}

export interface IdentityObservation {
  readonly identity: ResolvedIdentity;
  readonly declaresListChanged: boolean;
  readonly listings: readonly ListingSeen[];
  /** The call of a name the listing does not hold, and how it was answered. */
  readonly unlisted?: { readonly name: string; readonly refused: boolean; readonly how: string; readonly frames: readonly TappedFrame[] };
  /** Set when this identity's session failed part-way; rows that needed more of it are `error`. */
  readonly failure?: { readonly code: string; readonly message: string };
}

const EXCERPT_CHARS = 600;

function evidence(identity: string, frame: TappedFrame | undefined, redactor: Redactor | undefined): EvidenceFrame[] {
  if (frame === undefined) return [];
  const text = JSON.stringify(frame.message);
  const cut = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${text.length} chars)` : text;
  return [{ identity, seq: frame.seq, direction: frame.direction, method: frame.method, bytes: frameBytes(frame.message), excerpt: redactor === undefined ? cut : redactor.scrub(cut) }];
}

function toolName(tool: Record<string, unknown>): string {
  return typeof tool['name'] === 'string' ? tool['name'] : '(unnamed)';
}

function definitions(listing: ListingSeen): Map<string, string> {
  return new Map(listing.tools.map((tool) => [toolName(tool), canonicalJson(tool)]));
}

/** What changed between two listings, in words: added, removed, redefined names; or a reordering. */
export function listingDifference(a: ListingSeen, b: ListingSeen): string | undefined {
  if (canonicalJson(a.tools) === canonicalJson(b.tools)) return undefined;
  const da = definitions(a);
  const db = definitions(b);
  const added = [...db.keys()].filter((name) => !da.has(name));
  const removed = [...da.keys()].filter((name) => !db.has(name));
  const redefined = [...da.keys()].filter((name) => db.has(name) && db.get(name) !== da.get(name));
  const parts = [
    added.length > 0 ? `added ${added.slice(0, 5).join(', ')}${added.length > 5 ? ` (+${added.length - 5})` : ''}` : '',
    removed.length > 0 ? `removed ${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ` (+${removed.length - 5})` : ''}` : '',
    redefined.length > 0 ? `redefined ${redefined.slice(0, 5).join(', ')}${redefined.length > 5 ? ` (+${redefined.length - 5})` : ''}` : '',
  ].filter((part) => part !== '');
  // Order matters to a client: a reordered listing breaks a model's prompt cache as surely as a new tool.
  return parts.length === 0 ? 'same tools in another order' : parts.join('; ');
}

function row(id: RowId, verdict: RowVerdict, detail: string, frames: EvidenceFrame[] = []): ConsistencyRow {
  return { id, title: ROW_TITLES[id], verdict, detail, evidence: frames };
}

/** The first change between consecutive listings of one identity, if any. */
function firstChange(observation: IdentityObservation): { index: number; what: string } | undefined {
  for (let i = 1; i < observation.listings.length; i++) {
    const what = listingDifference(observation.listings[i - 1]!, observation.listings[i]!);
    if (what !== undefined) return { index: i, what };
  }
  return undefined;
}

function judgeStable(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const frames: EvidenceFrame[] = [];
  const failures: string[] = [];
  let compared = 0;
  for (const observation of observations) {
    const name = observation.identity.name;
    for (let i = 1; i < observation.listings.length; i++) {
      compared += 1;
      const before = observation.listings[i - 1]!;
      const after = observation.listings[i]!;
      const what = listingDifference(before, after);
      if (what === undefined) continue;
      if (after.noticesBefore > before.noticesBefore) continue; // announced: allowed
      failures.push(`${name}: listing ${i + 1} ${what} with no list_changed notification before it`);
      frames.push(...evidence(name, before.frame, redactor), ...evidence(name, after.frame, redactor));
      break;
    }
  }
  const broken = observations.filter((o) => o.failure !== undefined && o.listings.length < 2);
  if (failures.length > 0) return row('listing-stable', 'fail', failures.join('; '), frames);
  if (broken.length > 0) return row('listing-stable', 'error', `could not list twice: ${broken.map((o) => `${o.identity.name} ${o.failure!.code}`).join(', ')}`);
  const first = observations[0]?.listings[0];
  return row('listing-stable', 'pass', `${compared} consecutive listings compared across ${observations.length} identit${observations.length === 1 ? 'y' : 'ies'}; all identical`, evidence(observations[0]?.identity.name ?? '', first?.frame, redactor));
}

function judgeListChangedFalse(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const promising = observations.filter((o) => !o.declaresListChanged);
  if (promising.length === 0) return row('list-changed-false-honoured', 'not_applicable', 'the server declares tools.listChanged: true, so its listing may change after a notification');
  const failures: string[] = [];
  const frames: EvidenceFrame[] = [];
  for (const observation of promising) {
    const name = observation.identity.name;
    const change = firstChange(observation);
    const notices = observation.listings.at(-1)?.noticesBefore ?? 0;
    if (change !== undefined) {
      failures.push(`${name}: listing ${change.index + 1} ${change.what}`);
      frames.push(...evidence(name, observation.listings[change.index - 1]!.frame, redactor), ...evidence(name, observation.listings[change.index]!.frame, redactor));
    } else if (notices > 0) {
      failures.push(`${name}: ${notices} list_changed notification(s) from a server that declared listChanged: false`);
    }
  }
  if (failures.length > 0) return row('list-changed-false-honoured', 'fail', `declared listChanged: false, yet ${failures.join('; ')}`, frames);
  return row('list-changed-false-honoured', 'pass', `declared listChanged: false; ${promising.reduce((n, o) => n + o.listings.length, 0)} listings unchanged and no notification`);
}

function judgeUnlisted(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const probed = observations.filter((o) => o.unlisted !== undefined);
  if (probed.length === 0) {
    const failed = observations.find((o) => o.failure !== undefined);
    return row('unlisted-name-refused', 'error', failed === undefined ? 'no unlisted call was made' : `the session failed before the call: ${failed.failure!.code}`);
  }
  const accepted = probed.filter((o) => !o.unlisted!.refused);
  const frames = probed.flatMap((o) => o.unlisted!.frames.flatMap((frame) => evidence(o.identity.name, frame, redactor)));
  if (accepted.length > 0) return row('unlisted-name-refused', 'fail', accepted.map((o) => `${o.identity.name}: '${o.unlisted!.name}' ${o.unlisted!.how}`).join('; '), frames);
  return row('unlisted-name-refused', 'pass', probed.map((o) => `${o.identity.name}: ${o.unlisted!.how}`).join('; '), frames);
}

/** Names present for `a` and not `b`, and names a tool may only show up under. */
function judgeIdentities(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const listed = observations.filter((o) => o.listings.length > 0);
  if (observations.length < 2) return row('identity-differences-allowed', 'not_applicable', 'one identity configured; add a second to check per-identity filtering');
  if (listed.length < 2) return row('identity-differences-allowed', 'error', 'fewer than two identities could list');
  const problems: string[] = [];
  const frames: EvidenceFrame[] = [];
  for (let i = 0; i < listed.length; i++) {
    for (let j = 0; j < listed.length; j++) {
      if (i === j) continue;
      const a = listed[i]!;
      const b = listed[j]!;
      const da = definitions(a.listings[0]!);
      const db = definitions(b.listings[0]!);
      const mayDiffer = (name: string): boolean => a.identity.exclusive.some((p) => matchesToolPattern(name, p));
      const onlyA = [...da.keys()].filter((name) => !db.has(name) && !mayDiffer(name));
      const redefined = i < j ? [...da.keys()].filter((name) => db.has(name) && da.get(name) !== db.get(name) && !mayDiffer(name) && !b.identity.exclusive.some((p) => matchesToolPattern(name, p))) : [];
      // A tool reserved to `a` showing up for `b` is a leak, even when `a` sees it too.
      const leaked = [...db.keys()].filter((name) => mayDiffer(name) && !b.identity.exclusive.some((p) => matchesToolPattern(name, p)));
      const before = problems.length;
      if (onlyA.length > 0) problems.push(`${a.identity.name} alone is shown ${onlyA.join(', ')}, not declared exclusive to it`);
      if (redefined.length > 0) problems.push(`${redefined.join(', ')} defined differently for ${a.identity.name} and ${b.identity.name}`);
      if (leaked.length > 0) problems.push(`${b.identity.name} is shown ${leaked.join(', ')}, exclusive to ${a.identity.name}`);
      if (problems.length > before) frames.push(...evidence(b.identity.name, b.listings[0]!.frame, redactor));
    }
  }
  if (problems.length > 0) return row('identity-differences-allowed', 'fail', problems.join('; '), frames);
  return row('identity-differences-allowed', 'pass', `${listed.length} identities; every difference is declared exclusive and no exclusive tool leaked`);
}

function judgeCacheScope(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const listed = observations.filter((o) => o.listings.length > 0);
  const hinted = listed.flatMap((o) => o.listings.map((listing) => ({ o, listing }))).filter(({ listing }) => 'ttlMs' in listing.result || 'cacheScope' in listing.result);
  if (hinted.length === 0) return row('cache-scope-private', 'not_applicable', 'no list result carries ttlMs or cacheScope');
  const differ = listed.length >= 2 && listed.some((o) => listingDifference(listed[0]!.listings[0]!, o.listings[0]!) !== undefined);
  if (!differ) return row('cache-scope-private', 'pass', `caching hints present; listings ${listed.length >= 2 ? 'are the same for every identity' : 'seen for one identity only'}, so any scope is safe`);
  const shared = hinted.filter(({ listing }) => listing.result['cacheScope'] !== 'private');
  if (shared.length === 0) return row('cache-scope-private', 'pass', `listings differ by identity and every hinted result says cacheScope: "private"`);
  const first = shared[0]!;
  return row(
    'cache-scope-private',
    'fail',
    `listings differ by identity, yet ${first.o.identity.name}'s list result says cacheScope: ${JSON.stringify(first.listing.result['cacheScope']) ?? '(absent)'} with ttlMs ${JSON.stringify(first.listing.result['ttlMs']) ?? '(absent)'}: a shared cache would serve one identity's listing to another`,
    evidence(first.o.identity.name, first.listing.frame, redactor),
  );
}

function judgeSchemas(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const seen = new Map<string, Record<string, unknown>>();
  let owner: IdentityObservation | undefined;
  for (const o of observations) for (const listing of o.listings) for (const tool of listing.tools) {
    const key = canonicalJson(tool);
    if (!seen.has(key)) seen.set(key, tool);
    owner ??= o;
  }
  if (seen.size === 0) return row('input-schemas-valid', observations.some((o) => o.listings.length > 0) ? 'pass' : 'error', observations.some((o) => o.listings.length > 0) ? 'the listing holds no tools' : 'no listing to check');
  const problems = schemaProblems([...seen.values()]);
  if (problems.length === 0) return row('input-schemas-valid', 'pass', `${seen.size} distinct tool definitions, every inputSchema a valid object schema`);
  const holder = observations.find((o) => o.listings.some((l) => l.tools.some((t) => toolName(t) === problems[0]!.tool)));
  const frame = holder?.listings.find((l) => l.tools.some((t) => toolName(t) === problems[0]!.tool))?.frame;
  return row('input-schemas-valid', 'fail', problems.map((p) => `${p.tool}: ${p.problem}`).join('; '), evidence(holder?.identity.name ?? '', frame, redactor));
}

function judgeToolCount(observations: readonly IdentityObservation[]): ConsistencyRow {
  const counts = observations.filter((o) => o.listings.length > 0).map((o) => ({ name: o.identity.name, count: Math.max(...o.listings.map((l) => l.tools.length)) }));
  if (counts.length === 0) return row('tool-count-within-client-limit', 'error', 'no listing to count');
  const over = counts.filter((c) => c.count > CLIENT_TOOL_LIMIT);
  const text = counts.map((c) => `${c.name} ${c.count}`).join(', ');
  if (over.length > 0) return row('tool-count-within-client-limit', 'warn', `${text} tools: past ${CLIENT_TOOL_LIMIT}, which VS Code Copilot refuses`);
  return row('tool-count-within-client-limit', 'pass', `${text} tools`);
}

/** Every row, in a fixed order, from what the probe saw. */
export function judgeConsistency(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow[] {
  return [
    judgeStable(observations, redactor),
    judgeListChangedFalse(observations, redactor),
    judgeUnlisted(observations, redactor),
    judgeIdentities(observations, redactor),
    judgeCacheScope(observations, redactor),
    judgeSchemas(observations, redactor),
    judgeToolCount(observations),
  ];
}
