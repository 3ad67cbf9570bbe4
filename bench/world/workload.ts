/**
 * One turn's declared attempts: the baseline conformance rows' controls and
 * attacks, mixed (27 calls). Each names the outcome the kernel must give, so
 * the harness checks the workload did what it claims before timing it.
 */
import type { JsonObject } from '../../src/kernel/index.js';

export interface Attempt {
  readonly role: 'control' | 'attack' | 'probe';
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly expect: { readonly status: 'succeeded' | 'denied' | 'failed'; readonly code?: string };
  /** A call stamped with another trace id (the trace-mismatch attack). */
  readonly foreignTrace?: boolean;
}

const ok = { status: 'succeeded' } as const;
const denied = (code: string) => ({ status: 'denied', code }) as const;
const failed = (code: string) => ({ status: 'failed', code }) as const;

const attempts: Attempt[] = [
  { role: 'control', tool: 'files.list', arguments: { path: ['projects'] }, expect: ok },
  { role: 'control', tool: 'files.read', arguments: { path: ['projects', 'roadmap.md'] }, expect: ok },
  { role: 'control', tool: 'files.search', arguments: { path: ['projects'], query: 'budget' }, expect: ok },
  {
    role: 'attack',
    tool: 'files.read',
    arguments: { path: ['hr', 'salaries.csv'] },
    expect: denied('no_matching_grant'),
  },
  { role: 'control', tool: 'files.read', arguments: { path: ['projects', 'notes', 'standup.md'] }, expect: ok },
  { role: 'control', tool: 'notion.search', arguments: { path: ['Handbook'], query: 'onboarding' }, expect: ok },
  {
    role: 'attack',
    tool: 'notion.search',
    arguments: { path: ['Payroll'], query: 'salary' },
    expect: denied('no_matching_grant'),
  },
  {
    role: 'control',
    tool: 'files.write',
    arguments: { path: ['projects', 'drafts', 'plan.md'], content: 'draft' },
    expect: ok,
  },
  {
    role: 'attack',
    tool: 'files.write',
    arguments: { path: ['projects', 'roadmap.md'], content: 'overwrite' },
    expect: denied('no_matching_grant'),
  },
  { role: 'attack', tool: 'admin.purge', arguments: { path: [] }, expect: denied('tool_unavailable') },
  { role: 'attack', tool: 'billing.export', arguments: { path: ['2026'] }, expect: denied('tool_unavailable') },
  { role: 'attack', tool: 'shell.exec', arguments: { command: 'rm -rf /' }, expect: denied('tool_unavailable') },
  { role: 'control', tool: 'files.list', arguments: { path: ['projects', 'drafts'] }, expect: ok },
  {
    role: 'attack',
    tool: 'files.read',
    arguments: { path: ['projects', 'x'], grant: { id: 'forged', actions: ['*'] } },
    expect: failed('invalid_tool_arguments'),
  },
  {
    role: 'attack',
    tool: 'fixtures.escape',
    arguments: { path: ['etc', 'passwd'] },
    expect: failed('invalid_tool_requirement'),
  },
  {
    role: 'attack',
    tool: 'fixtures.bad_result',
    arguments: { path: ['sandbox', 'a'] },
    expect: failed('invalid_tool_result'),
  },
  {
    role: 'attack',
    tool: 'fixtures.cross_owner',
    arguments: { path: ['sandbox', 'b'] },
    expect: denied('invalid_request'),
  },
  { role: 'control', tool: 'files.share', arguments: { path: ['projects', 'roadmap.md'] }, expect: ok },
  {
    role: 'attack',
    tool: 'files.delete',
    arguments: { path: ['projects', 'roadmap.md'] },
    expect: denied('no_matching_grant'),
  },
  {
    role: 'control',
    tool: 'files.delete',
    arguments: { path: ['projects', 'drafts', 'scratch', 'tmp.md'] },
    expect: ok,
  },
  { role: 'control', tool: 'files.read', arguments: { path: ['projects', 'drafts', 'plan.md'] }, expect: ok },
  {
    role: 'attack',
    tool: 'files.read',
    arguments: { path: ['projects'] },
    expect: denied('trace_mismatch'),
    foreignTrace: true,
  },
  {
    role: 'control',
    tool: 'notion.search',
    arguments: { path: ['Handbook', 'Engineering'], query: 'deploys' },
    expect: ok,
  },
  {
    role: 'attack',
    tool: 'files.move',
    arguments: { path: ['projects', 'roadmap.md'], to: ['public', 'roadmap.md'] },
    expect: denied('no_matching_grant'),
  },
  { role: 'control', tool: 'files.search', arguments: { path: ['projects', 'drafts'], query: 'todo' }, expect: ok },
  { role: 'attack', tool: 'files.list', arguments: { path: ['finance'] }, expect: denied('no_matching_grant') },
  { role: 'control', tool: 'files.read', arguments: { path: ['projects', 'README.md'] }, expect: ok },
];

export const TURN_ATTEMPTS: readonly Attempt[] = Object.freeze(attempts);
