/**
 * The fixed conformance world. It is deliberately small and deliberately not
 * the bench's reference world: a change to what the harness measures must
 * not silently change what the suite judges. Its sha-256 is printed on every
 * report, so two reports that disagree can first be asked whether they judged
 * the same world.
 */
import type { GrantDeclaration, ToolDeclaration, WorldDeclaration } from './world-declaration.js';

const file = (
  name: string,
  action: string,
  readWrite: 'read' | 'write',
  shape: ToolDeclaration['arguments'],
  description: string,
  destructive?: boolean,
): ToolDeclaration => ({
  name: `files.${name}`,
  description,
  namespace: 'files',
  action,
  readWrite,
  arguments: shape,
  ceilingPath: [],
  behaviour: 'ordinary',
  ...(destructive === undefined ? {} : { destructive }),
});

const fixture = (name: string, behaviour: ToolDeclaration['behaviour'], description: string): ToolDeclaration => ({
  name: `fixtures.${name}`,
  description,
  namespace: 'fixtures',
  action: 'read',
  readWrite: 'read',
  arguments: 'path',
  ceilingPath: ['sandbox'],
  behaviour,
});

const STATIC_TOOLS: readonly ToolDeclaration[] = [
  file('read', 'read', 'read', 'path', 'Read a file.'),
  file('list', 'list', 'read', 'path', 'List a folder.'),
  file('search', 'search', 'read', 'path+query', 'Search file contents under a folder.'),
  file('write', 'write', 'write', 'path+content', 'Write a file, replacing its content.'),
  file('move', 'write', 'write', 'path+to', 'Move or rename a file.', true),
  file('delete', 'delete', 'write', 'path', 'Delete a file (no grant carries delete: hidden).', true),
  file('share', 'share', 'write', 'path', 'Share a file with the group.'),
  {
    name: 'admin.purge',
    description: 'Purge the workspace (no grant carries administer: hidden).',
    namespace: 'admin',
    action: 'administer',
    readWrite: 'write',
    arguments: 'path',
    ceilingPath: [],
    behaviour: 'ordinary',
    destructive: true,
  },
  {
    name: 'billing.export',
    description: 'Export invoices (its namespace is not enabled: hidden).',
    namespace: 'billing',
    action: 'read',
    readWrite: 'read',
    arguments: 'path',
    ceilingPath: [],
    behaviour: 'ordinary',
  },
  fixture('read', 'ordinary', 'Read inside the sandbox.'),
  fixture('escape', 'escapes-ceiling', 'A tool whose call asks for more than its declared ceiling.'),
  fixture('bad_result', 'malformed-result', 'A tool that answers with a malformed result.'),
  fixture('cross_owner', 'names-another-owner', "A tool whose call names another owner's resource."),
];

/**
 * `notion.search` is declared over all of `notion` (path []), while the
 * actor's grant covers only `notion/Handbook`: discovery's looser test lets a
 * narrow grant see a broadly declared tool, and each call is then decided on
 * the argument path.
 */
const NOTION_SEARCH: ToolDeclaration = {
  name: 'notion.search',
  description: "Search the user's Notion workspace (served by their own provider).",
  namespace: 'notion',
  action: 'search',
  readWrite: 'read',
  arguments: 'path+query',
  ceilingPath: [],
  behaviour: 'ordinary',
};

const grant = (id: string, namespace: string, path: string[], actions: string[]): GrantDeclaration => ({
  id,
  namespace,
  path,
  actions,
  scope: 'descendants',
});

export const CONFORMANCE_WORLD: WorldDeclaration = {
  id: 'costlab-conformance-world/1',
  namespaceId: 'conformance',
  epoch: '2026-12-01T09:00:00.000Z',
  principals: {
    actor: { kind: 'human', userId: 'ada' },
    authority: { kind: 'service', serviceId: 'conformance-grants' },
    owner: { kind: 'group', groupId: 'acme' },
    stranger: { kind: 'human', userId: 'mallory' },
  },
  purpose: 'conformance: judge the mediation kernel',
  enabledToolNamespaces: ['files', 'notion', 'admin', 'fixtures'],
  grantIssuedAt: '2026-11-01T00:00:00.000Z',
  grants: [
    grant('g-files-read', 'files', ['projects'], ['read', 'list', 'search']),
    grant('g-files-write', 'files', ['projects', 'drafts'], ['write']),
    grant('g-files-share', 'files', ['projects'], ['share']),
    grant('g-notion', 'notion', ['Handbook'], ['search']),
    grant('g-fixtures', 'fixtures', ['sandbox'], ['read']),
  ],
  tools: STATIC_TOOLS,
  providers: [{ id: 'notion', tools: [NOTION_SEARCH] }],
};
