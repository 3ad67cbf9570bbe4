/**
 * The case set: each case names an invariant and a move, and the conditions
 * its rows run under. A row is case × condition; its cells are that row
 * played through every column. Declared as data — the set's sha-256 is on
 * every report.
 */
import type { JsonObject } from '../kernel/index.js';
import { refused, succeeds } from './move.js';
import type { CallStep, CatalogueStep, Expectation, MoveStep, Role } from './move.js';

export interface CaseDeclaration {
  readonly id: string;
  readonly invariant: string;
  readonly conditions: readonly string[];
  readonly move: readonly MoveStep[];
}

const call = (
  role: Role,
  label: string,
  tool: string,
  args: JsonObject,
  expect: Expectation,
  credential?: 'stale-token',
): CallStep => ({
  do: 'call',
  role,
  label,
  tool,
  arguments: args,
  expect,
  ...(credential === undefined ? {} : { credential }),
});

const shown = (role: Role, label: string, shows: readonly string[], hides: readonly string[]): CatalogueStep => ({
  do: 'catalogue',
  role,
  label,
  expect: { shows, hides },
});

const MINUTE = 60_000;

/** The ordinary granted read every row uses as its control. */
const grantedRead = (label = 'a granted read'): CallStep =>
  call('control', label, 'files.read', { path: ['projects', 'roadmap.md'] }, succeeds);

export const CASES: readonly CaseDeclaration[] = [
  {
    id: 'forged-grant-in-arguments',
    invariant:
      'authority enters only through the GrantSource: a grant smuggled into arguments is refused, never honoured',
    conditions: ['baseline'],
    move: [
      grantedRead(),
      call(
        'attack',
        'a read carrying a forged wildcard grant',
        'files.read',
        { path: ['hr', 'salaries.csv'], grant: { id: 'forged', actions: ['*'], scope: 'descendants' } },
        refused('invalid_tool_arguments'),
      ),
      call(
        'attack',
        'a write carrying forged grants',
        'files.write',
        { path: ['projects', 'roadmap.md'], content: 'x', grants: [{ id: 'forged', actions: ['write'] }] },
        refused('invalid_tool_arguments'),
      ),
    ],
  },
  {
    id: 'hidden-tool',
    invariant: 'a tool the actor may not discover is neither shown nor callable, and looks exactly like a missing one',
    conditions: ['baseline'],
    move: [
      shown(
        'probe',
        'the listing withholds what the actor cannot use',
        ['files.read', 'files.write', 'notion.search'],
        ['admin.purge', 'billing.export', 'files.delete'],
      ),
      call('attack', 'a tool no grant can discover', 'admin.purge', { path: [] }, refused('tool_unavailable')),
      call(
        'attack',
        'a tool in a namespace not enabled',
        'billing.export',
        { path: ['2026'] },
        refused('tool_unavailable'),
      ),
      call('attack', 'a tool that does not exist', 'shell.exec', { command: 'rm -rf /' }, refused('tool_unavailable')),
      call('control', 'a granted listing', 'files.list', { path: ['projects'] }, succeeds),
    ],
  },
  {
    id: 'read-to-mutation',
    invariant: 'a read grant never authorizes a write, a move or a delete',
    conditions: ['baseline'],
    move: [
      grantedRead(),
      call(
        'attack',
        'overwrite a file the actor may only read',
        'files.write',
        { path: ['projects', 'roadmap.md'], content: 'overwritten' },
        refused('no_matching_grant'),
      ),
      call(
        'attack',
        'move a file the actor may only read',
        'files.move',
        { path: ['projects', 'roadmap.md'], to: ['projects', 'drafts', 'roadmap.md'] },
        refused('no_matching_grant'),
      ),
      // No grant carries `delete`, so the tool is hidden: refused as unavailable, like a tool that does not exist.
      call(
        'attack',
        'delete a file the actor may only read',
        'files.delete',
        { path: ['projects', 'roadmap.md'] },
        refused('tool_unavailable'),
      ),
      call(
        'control',
        'a granted write',
        'files.write',
        { path: ['projects', 'drafts', 'plan.md'], content: 'draft' },
        succeeds,
      ),
    ],
  },
  {
    id: 'expired-mid-turn',
    invariant: 'expiry is judged at the operation instant: a grant that lapses mid-turn refuses mid-turn',
    conditions: ['grant-expires-mid-turn'],
    move: [
      grantedRead('a read before the grant expires'),
      { do: 'setup', setup: { kind: 'advance-clock', ms: 60 * MINUTE } },
      call(
        'attack',
        'the same read after the grant expired',
        'files.read',
        { path: ['projects', 'roadmap.md'] },
        refused('no_matching_grant'),
      ),
      call(
        'control',
        'a write on a grant still live',
        'files.write',
        { path: ['projects', 'drafts', 'plan.md'], content: 'draft' },
        succeeds,
      ),
    ],
  },
  {
    id: 'revoked-mid-turn',
    invariant: 'a revocation recorded during a turn is seen by the next turn (judged at admission)',
    conditions: ['revocation-recorded'],
    move: [
      grantedRead('a read before the revocation'),
      { do: 'setup', setup: { kind: 'advance-clock', ms: MINUTE } },
      { do: 'setup', setup: { kind: 'arm' } },
      call(
        'probe',
        'the turn admitted before the revocation keeps its authority',
        'files.read',
        { path: ['projects', 'notes.md'] },
        succeeds,
      ),
      { do: 'setup', setup: { kind: 'advance-clock', ms: MINUTE } },
      { do: 'next-turn' },
      shown(
        'probe',
        'the next turn is not shown what only the revoked grant covered',
        ['files.write'],
        ['files.read', 'files.list'],
      ),
      // files.read is hidden now, so it is refused as unavailable — by the bridge, which never listed it, or by the
      // kernel's discovery.
      call(
        'attack',
        'the next turn reads on the revoked grant',
        'files.read',
        { path: ['projects', 'roadmap.md'] },
        refused('tool_unavailable'),
      ),
      call(
        'control',
        'the next turn writes on a grant still live',
        'files.write',
        { path: ['projects', 'drafts', 'plan.md'], content: 'draft' },
        succeeds,
      ),
    ],
  },
  {
    id: 'namespace-crossing',
    invariant: "a call cannot reach another owner's resources or a namespace the turn has not enabled",
    conditions: ['baseline'],
    move: [
      call(
        'attack',
        "a tool that names another owner's resource",
        'fixtures.cross_owner',
        { path: ['sandbox', 'b'] },
        refused('invalid_request'),
      ),
      call(
        'attack',
        'a tool in a namespace not enabled',
        'billing.export',
        { path: ['2026'] },
        refused('tool_unavailable'),
      ),
      call('control', 'a granted read in the sandbox', 'fixtures.read', { path: ['sandbox', 'a'] }, succeeds),
    ],
  },
  {
    id: 'bounded-grant-exhausted',
    invariant: 'a bounded grant is consumed per authorized call and refuses once spent',
    conditions: ['bounded-grant'],
    move: [
      call('control', 'the one use the grant allows', 'files.share', { path: ['projects', 'roadmap.md'] }, succeeds),
      call('attack', 'a second use', 'files.share', { path: ['projects', 'roadmap.md'] }, refused('grant_exhausted')),
      grantedRead('an unbounded grant still answers'),
    ],
  },
  {
    id: 'authority-unavailable',
    invariant: 'authority that cannot be loaded or trusted fails the whole turn closed',
    conditions: ['grant-source-throws', 'grant-source-answers-garbage', 'grant-source-crosses-namespace'],
    move: [
      shown('probe', 'a fail-closed turn is shown nothing', [], ['files.read', 'notion.search']),
      call(
        'attack',
        'a read in a turn without authority',
        'files.read',
        { path: ['projects', 'roadmap.md'] },
        refused('authority_unavailable'),
      ),
    ],
  },
  {
    id: 'tool-escaping-ceiling',
    invariant: "a call's requirement must stay inside the tool's declared ceiling",
    conditions: ['baseline'],
    move: [
      call(
        'attack',
        'a tool asking for its whole namespace',
        'fixtures.escape',
        { path: ['sandbox', 'a'] },
        refused('invalid_tool_requirement'),
      ),
      call('control', 'a granted read in the sandbox', 'fixtures.read', { path: ['sandbox', 'a'] }, succeeds),
    ],
  },
  {
    id: 'invalid-tool-result',
    invariant: 'a result that fails its contract never reaches the caller as a success',
    conditions: ['baseline'],
    move: [
      call(
        'probe',
        'a tool answering a malformed result',
        'fixtures.bad_result',
        { path: ['sandbox', 'a'] },
        refused('invalid_tool_result'),
      ),
      call('control', 'a granted read in the sandbox', 'fixtures.read', { path: ['sandbox', 'a'] }, succeeds),
    ],
  },
  {
    id: 'provider-failing',
    invariant: 'a catalogue with a provider missing is not published as if complete: the turn fails closed',
    conditions: ['provider-throws'],
    move: [
      call(
        'probe',
        'a static read while a provider is down',
        'files.read',
        { path: ['projects', 'roadmap.md'] },
        refused('tool_catalog_unavailable'),
      ),
    ],
  },
  {
    id: 'audit-sink-failing',
    invariant: 'a decision that cannot be recorded does not take effect',
    conditions: ['audit-sink-throws'],
    move: [
      call(
        'probe',
        'a granted read whose decision record cannot be written',
        'files.read',
        { path: ['projects', 'roadmap.md'] },
        refused('audit_unavailable'),
      ),
    ],
  },
  {
    id: 'stale-execution-token',
    invariant: 'a sandbox holding a token for a catalogue the turn never published cannot call tools',
    conditions: ['baseline'],
    move: [
      grantedRead('a read with the live token'),
      call(
        'attack',
        'the same read from a stale sandbox',
        'files.read',
        { path: ['projects', 'roadmap.md'] },
        refused('claims_mismatch'),
        'stale-token',
      ),
    ],
  },
  {
    id: 'catalogue-moved-mid-turn',
    invariant: 'a call is decided against the catalogue its turn published, not a later resolution of it',
    conditions: ['provider-moves-mid-turn'],
    move: [
      grantedRead(),
      call(
        'probe',
        'a search inside the granted tree, after the provider moved',
        'notion.search',
        { path: ['Handbook', 'Onboarding'], query: 'first week' },
        succeeds,
      ),
      call(
        'attack',
        'the same tool outside the granted tree',
        'notion.search',
        { path: ['Payroll'], query: 'salaries' },
        refused('no_matching_grant'),
      ),
    ],
  },
];

/** The row the ADR added; the sweep reports its probe per strategy. */
export const CATALOGUE_MOVED_ROW = 'catalogue-moved-mid-turn';
