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
import type { CallCost } from './target-report-schema.js';

/**
 * `not_exercised`: the row applied but nothing was observed that it could
 * judge (no listing, no call answered, no definition): it never passes on
 * an absence of evidence.
 */
export type RowVerdict = 'pass' | 'fail' | 'warn' | 'not_applicable' | 'not_exercised' | 'error';

export const CLIENT_TOOL_LIMIT = 128;

interface EvidenceFrame {
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
  /** How many observations (listings compared, calls answered, definitions checked) the verdict stands on. */
  readonly observations: number;
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
  'structured-content-valid':
    "every structuredContent matches its tool's outputSchema, and a tool declaring one returns it",
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
  readonly unlisted?: {
    readonly name: string;
    readonly refused: boolean;
    readonly how: string;
    readonly frames: readonly TappedFrame[];
  };
  /** Set when this identity's session failed part-way; rows that needed more of it are `error`. */
  readonly failure?: { readonly code: string; readonly message: string };
}

const EXCERPT_CHARS = 600;

function evidence(identity: string, frame: TappedFrame | undefined, redactor: Redactor | undefined): EvidenceFrame[] {
  if (frame === undefined) return [];
  // Scrubbed as a value before it is cut: a secret split by the cut would otherwise leave its first half.
  const text = JSON.stringify(redactor === undefined ? frame.message : redactor.scrubValue(frame.message));
  const cut = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${text.length} chars)` : text;
  return [
    {
      identity,
      seq: frame.seq,
      direction: frame.direction,
      method: frame.method,
      bytes: frameBytes(frame.message),
      excerpt: cut,
    },
  ];
}

/** Target text (tool names, values it sent) as it may appear in a row's detail. */
const shown = (redactor: Redactor | undefined, text: string): string =>
  redactor === undefined ? text : redactor.scrub(text);

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
    removed.length > 0
      ? `removed ${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ` (+${removed.length - 5})` : ''}`
      : '',
    redefined.length > 0
      ? `redefined ${redefined.slice(0, 5).join(', ')}${redefined.length > 5 ? ` (+${redefined.length - 5})` : ''}`
      : '',
  ].filter((part) => part !== '');
  // Order matters to a client: a reordered listing breaks a model's prompt cache as surely as a new tool.
  return parts.length === 0 ? 'same tools in another order' : parts.join('; ');
}

/**
 * A row. A `pass` or `warn` resting on no observation becomes `not_exercised`:
 * a verdict may only say what was seen.
 */
function row(
  id: RowId,
  verdict: RowVerdict,
  detail: string,
  observations: number,
  frames: EvidenceFrame[] = [],
): ConsistencyRow {
  if ((verdict === 'pass' || verdict === 'warn') && observations === 0)
    return {
      id,
      title: ROW_TITLES[id],
      verdict: 'not_exercised',
      detail: `nothing observed to judge: ${detail}`,
      observations,
      evidence: frames,
    };
  return { id, title: ROW_TITLES[id], verdict, detail, observations, evidence: frames };
}

/**
 * Every row failed with one cause: the target could not be spoken to at all
 * (dead, hung, not MCP), so nothing it promises was seen to hold.
 */
export function failedTargetRows(cause: { code: string; message: string }): ConsistencyRow[] {
  return ROW_IDS.map((id) => ({
    id,
    title: ROW_TITLES[id],
    verdict: 'fail' as const,
    detail: `the target could not be judged: ${cause.message}`,
    observations: 0,
    evidence: [],
  }));
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
      failures.push(`${name}: listing ${i + 1} ${shown(redactor, what)} with no list_changed notification before it`);
      frames.push(...evidence(name, before.frame, redactor), ...evidence(name, after.frame, redactor));
      break;
    }
  }
  const broken = observations.filter((o) => o.failure !== undefined && o.listings.length < 2);
  if (failures.length > 0) return row('listing-stable', 'fail', failures.join('; '), compared, frames);
  if (broken.length > 0)
    return row(
      'listing-stable',
      'error',
      `could not list twice: ${broken.map((o) => `${o.identity.name} ${o.failure!.message}`).join('; ')}`,
      compared,
    );
  const first = observations[0]?.listings[0];
  return row(
    'listing-stable',
    'pass',
    `${compared} consecutive listings compared across ${observations.length} ` +
      `identit${observations.length === 1 ? 'y' : 'ies'}; all identical`,
    compared,
    evidence(observations[0]?.identity.name ?? '', first?.frame, redactor),
  );
}

function judgeListChangedFalse(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const promising = observations.filter((o) => !o.declaresListChanged);
  if (promising.length === 0)
    return row(
      'list-changed-false-honoured',
      'not_applicable',
      'the server declares tools.listChanged: true, so its listing may change after a notification',
      0,
    );
  const failures: string[] = [];
  const frames: EvidenceFrame[] = [];
  for (const observation of promising) {
    const name = observation.identity.name;
    const change = firstChange(observation);
    const notices = observation.listings.at(-1)?.noticesBefore ?? 0;
    if (change !== undefined) {
      failures.push(`${name}: listing ${change.index + 1} ${shown(redactor, change.what)}`);
      frames.push(
        ...evidence(name, observation.listings[change.index - 1]!.frame, redactor),
        ...evidence(name, observation.listings[change.index]!.frame, redactor),
      );
    } else if (notices > 0) {
      failures.push(`${name}: ${notices} list_changed notification(s) from a server that declared listChanged: false`);
    }
  }
  // A change can only be seen between two listings of one session: a session with fewer observed nothing.
  const compared = promising.reduce((n, o) => n + Math.max(0, o.listings.length - 1), 0);
  if (failures.length > 0)
    return row(
      'list-changed-false-honoured',
      'fail',
      `declared listChanged: false, yet ${failures.join('; ')}`,
      compared,
      frames,
    );
  const broken = promising.filter((o) => o.failure !== undefined && o.listings.length < 2);
  if (broken.length > 0)
    return row(
      'list-changed-false-honoured',
      'error',
      `could not list twice: ${broken.map((o) => `${o.identity.name} ${o.failure!.message}`).join('; ')}`,
      compared,
    );
  return row(
    'list-changed-false-honoured',
    'pass',
    `declared listChanged: false; ${compared} consecutive listings compared, unchanged, and no notification`,
    compared,
  );
}

function judgeUnlisted(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const probed = observations.filter((o) => o.unlisted !== undefined);
  if (probed.length === 0) {
    const failed = observations.find((o) => o.failure !== undefined);
    return row(
      'unlisted-name-refused',
      'error',
      failed === undefined
        ? 'no unlisted call was made'
        : `the session failed before the call: ${failed.failure!.message}`,
      0,
    );
  }
  const accepted = probed.filter((o) => !o.unlisted!.refused);
  const frames = probed.flatMap((o) =>
    o.unlisted!.frames.flatMap((frame) => evidence(o.identity.name, frame, redactor)),
  );
  if (accepted.length > 0)
    return row(
      'unlisted-name-refused',
      'fail',
      accepted.map((o) => `${o.identity.name}: '${o.unlisted!.name}' ${o.unlisted!.how}`).join('; '),
      probed.length,
      frames,
    );
  return row(
    'unlisted-name-refused',
    'pass',
    probed.map((o) => `${o.identity.name}: ${o.unlisted!.how}`).join('; '),
    probed.length,
    frames,
  );
}

/** Names present for `a` and not `b`, and names a tool may only show up under. */
function judgeIdentities(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const listed = observations.filter((o) => o.listings.length > 0);
  if (observations.length < 2)
    return row(
      'identity-differences-allowed',
      'not_applicable',
      'one identity configured; add a second to check per-identity filtering',
      0,
    );
  if (listed.length < 2)
    return row(
      'identity-differences-allowed',
      'error',
      `fewer than two identities could list: ${observations
        .filter((o) => o.listings.length === 0)
        .map((o) => `${o.identity.name} ${o.failure?.message ?? 'listed nothing'}`)
        .join('; ')}`,
      listed.length,
    );
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
      const redefined =
        i < j
          ? [...da.keys()].filter(
              (name) =>
                db.has(name) &&
                da.get(name) !== db.get(name) &&
                !mayDiffer(name) &&
                !b.identity.exclusive.some((p) => matchesToolPattern(name, p)),
            )
          : [];
      // A tool reserved to `a` showing up for `b` is a leak, even when `a` sees it too.
      const leaked = [...db.keys()].filter(
        (name) => mayDiffer(name) && !b.identity.exclusive.some((p) => matchesToolPattern(name, p)),
      );
      const before = problems.length;
      if (onlyA.length > 0)
        problems.push(
          `${a.identity.name} alone is shown ${shown(redactor, onlyA.join(', '))}, not declared exclusive to it`,
        );
      if (redefined.length > 0)
        problems.push(
          `${shown(redactor, redefined.join(', '))} defined differently for ${a.identity.name} and ${b.identity.name}`,
        );
      if (leaked.length > 0)
        problems.push(
          `${b.identity.name} is shown ${shown(redactor, leaked.join(', '))}, exclusive to ${a.identity.name}`,
        );
      if (problems.length > before) frames.push(...evidence(b.identity.name, b.listings[0]!.frame, redactor));
    }
  }
  if (problems.length > 0)
    return row('identity-differences-allowed', 'fail', problems.join('; '), listed.length, frames);
  return row(
    'identity-differences-allowed',
    'pass',
    `${listed.length} identities; every difference is declared exclusive and no exclusive tool leaked`,
    listed.length,
  );
}

function judgeCacheScope(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const listed = observations.filter((o) => o.listings.length > 0);
  const hinted = listed
    .flatMap((o) => o.listings.map((listing) => ({ o, listing })))
    .filter(({ listing }) => 'ttlMs' in listing.result || 'cacheScope' in listing.result);
  if (listed.length === 0) return row('cache-scope-private', 'not_exercised', 'no list result was received', 0);
  if (hinted.length === 0)
    return row('cache-scope-private', 'not_applicable', 'no list result carries ttlMs or cacheScope', 0);
  const differ =
    listed.length >= 2 && listed.some((o) => listingDifference(listed[0]!.listings[0]!, o.listings[0]!) !== undefined);
  const sameFor = listed.length >= 2 ? 'are the same for every identity' : 'seen for one identity only';
  if (!differ)
    return row(
      'cache-scope-private',
      'pass',
      `caching hints present; listings ${sameFor}, so any scope is safe`,
      hinted.length,
    );
  const shared = hinted.filter(({ listing }) => listing.result['cacheScope'] !== 'private');
  if (shared.length === 0)
    return row(
      'cache-scope-private',
      'pass',
      `listings differ by identity and every hinted result says cacheScope: "private"`,
      hinted.length,
    );
  const first = shared[0]!;
  return row(
    'cache-scope-private',
    'fail',
    `listings differ by identity, yet ${first.o.identity.name}'s list result says ` +
      `cacheScope: ${shown(redactor, JSON.stringify(first.listing.result['cacheScope']) ?? '(absent)')} with ` +
      `ttlMs ${shown(redactor, JSON.stringify(first.listing.result['ttlMs']) ?? '(absent)')}: a shared cache would ` +
      `serve one identity's listing to another`,
    hinted.length,
    evidence(first.o.identity.name, first.listing.frame, redactor),
  );
}

function judgeSchemas(observations: readonly IdentityObservation[], redactor?: Redactor): ConsistencyRow {
  const seen = new Map<string, Record<string, unknown>>();
  let owner: IdentityObservation | undefined;
  for (const o of observations)
    for (const listing of o.listings)
      for (const tool of listing.tools) {
        const key = canonicalJson(tool);
        if (!seen.has(key)) seen.set(key, tool);
        owner ??= o;
      }
  if (seen.size === 0)
    return row(
      'input-schemas-valid',
      observations.some((o) => o.listings.length > 0) ? 'not_exercised' : 'error',
      observations.some((o) => o.listings.length > 0) ? 'the listing holds no tools' : 'no listing to check',
      0,
    );
  const problems = schemaProblems([...seen.values()]);
  if (problems.length === 0)
    return row(
      'input-schemas-valid',
      'pass',
      `${seen.size} distinct tool definitions, every inputSchema a valid object schema`,
      seen.size,
    );
  const holder = observations.find((o) =>
    o.listings.some((l) => l.tools.some((t) => toolName(t) === problems[0]!.tool)),
  );
  const frame = holder?.listings.find((l) => l.tools.some((t) => toolName(t) === problems[0]!.tool))?.frame;
  return row(
    'input-schemas-valid',
    'fail',
    shown(redactor, problems.map((p) => `${p.tool}: ${p.problem}`).join('; ')),
    seen.size,
    evidence(holder?.identity.name ?? '', frame, redactor),
  );
}

function judgeToolCount(observations: readonly IdentityObservation[]): ConsistencyRow {
  const counts = observations
    .filter((o) => o.listings.length > 0)
    .map((o) => ({ name: o.identity.name, count: Math.max(...o.listings.map((l) => l.tools.length)) }));
  if (counts.length === 0) return row('tool-count-within-client-limit', 'error', 'no listing to count', 0);
  const over = counts.filter((c) => c.count > CLIENT_TOOL_LIMIT);
  const text = counts.map((c) => `${c.name} ${c.count}`).join(', ');
  if (over.length > 0)
    return row(
      'tool-count-within-client-limit',
      'warn',
      `${text} tools: past ${CLIENT_TOOL_LIMIT}, which VS Code Copilot refuses`,
      counts.length,
    );
  return row('tool-count-within-client-limit', 'pass', `${text} tools`, counts.length);
}

function judgeStructured(
  observations: readonly IdentityObservation[],
  calls: readonly CallCost[] | undefined,
): ConsistencyRow {
  const tools = observations.find((o) => o.listings.length > 0)?.listings[0]?.tools;
  if (tools === undefined) return row('structured-content-valid', 'error', 'no listing: no tool to call', 0);
  const declaring = tools.filter((tool) => tool['outputSchema'] !== undefined).length;
  const judged = (calls ?? []).filter(
    (call) =>
      call.structured.verdict === 'valid' ||
      call.structured.verdict === 'invalid' ||
      call.structured.verdict === 'missing',
  );
  const bad = judged.filter((call) => call.structured.verdict !== 'valid');
  if (bad.length > 0)
    return row(
      'structured-content-valid',
      'fail',
      bad.map((call) => `${call.key}: ${call.structured.problem ?? call.structured.verdict}`).join('; '),
      judged.length,
    );
  if (declaring === 0)
    return row('structured-content-valid', 'not_applicable', 'no listed tool declares an outputSchema', 0);
  const skipped = (calls ?? []).filter((call) => call.status === 'skipped').length;
  const unchecked =
    calls === undefined || calls.length === 0
      ? 'no calls planned: add calls to the config or run with --calls all'
      : `${skipped} call(s) skipped`;
  return row(
    'structured-content-valid',
    'pass',
    judged.length === 0
      ? `${declaring} tool(s) declare an outputSchema; none answered a call with a result to check (${unchecked})`
      : `${judged.length} result(s) of the ${declaring} tool(s) declaring an outputSchema, every ` +
          `structuredContent valid`,
    judged.length,
  );
}

/** Every row, in a fixed order, from what the probe saw and the calls it made between listings. */
export function judgeConsistency(
  observations: readonly IdentityObservation[],
  redactor?: Redactor,
  calls?: readonly CallCost[],
): ConsistencyRow[] {
  return [
    judgeStable(observations, redactor),
    judgeListChangedFalse(observations, redactor),
    judgeUnlisted(observations, redactor),
    judgeIdentities(observations, redactor),
    judgeCacheScope(observations, redactor),
    judgeSchemas(observations, redactor),
    judgeToolCount(observations),
    judgeStructured(observations, calls),
  ];
}
