/**
 * What each scenario of `@modelcontextprotocol/conformance` (server suite,
 * 0.1.x) needs of the server under test before it applies: a capability the
 * server declares at initialize, and for the scenarios that call the suite's
 * own fixture tools, that tool in the server's listing. A scenario whose need
 * is absent is listed as not applicable with the need named; every other
 * scenario applies, and a failure there is a failure.
 */
export interface ScenarioNeed {
  /** A top-level key of the server's initialize `capabilities` (`resources.subscribe` names a sub-flag). */
  readonly capability?: 'tools' | 'logging' | 'completions' | 'resources' | 'resources.subscribe' | 'prompts';
  /** The suite's fixture tool the scenario calls, and what that tool does that a plain tool does not. */
  readonly tool?: { readonly name: string; readonly behaviour?: string };
  /** The suite's fixture prompt, resource (by URI) or resource template the scenario reads. */
  readonly fixture?: { readonly kind: 'prompt' | 'resource' | 'resource template'; readonly name: string };
}

/** What the server offers by name: tools, prompts, resource URIs and templates. */
export interface ServerOffer {
  readonly tools: ReadonlySet<string>;
  readonly fixtures: ReadonlySet<string>;
}

export const SCENARIO_NEEDS: Readonly<Record<string, ScenarioNeed>> = {
  'server-initialize': {},
  ping: {},
  'dns-rebinding-protection': {},
  'server-sse-multiple-streams': {},
  'server-sse-polling': {},
  'tools-list': { capability: 'tools' },
  'tools-call-simple-text': { capability: 'tools', tool: { name: 'test_simple_text' } },
  'tools-call-image': { capability: 'tools', tool: { name: 'test_image_content' } },
  'tools-call-audio': { capability: 'tools', tool: { name: 'test_audio_content' } },
  'tools-call-embedded-resource': { capability: 'tools', tool: { name: 'test_embedded_resource' } },
  'tools-call-mixed-content': { capability: 'tools', tool: { name: 'test_multiple_content_types' } },
  'tools-call-error': { capability: 'tools', tool: { name: 'test_error_handling' } },
  'json-schema-2020-12': { capability: 'tools', tool: { name: 'json_schema_2020_12_tool' } },
  'tools-call-with-logging': {
    capability: 'logging',
    tool: { name: 'test_tool_with_logging', behaviour: 'sends log notifications while it runs' },
  },
  'tools-call-with-progress': {
    capability: 'tools',
    tool: { name: 'test_tool_with_progress', behaviour: 'sends progress notifications while it runs' },
  },
  'tools-call-sampling': {
    capability: 'tools',
    tool: { name: 'test_sampling', behaviour: 'asks the client for sampling/createMessage during the call' },
  },
  'tools-call-elicitation': {
    capability: 'tools',
    tool: { name: 'test_elicitation', behaviour: 'asks the client for elicitation/create during the call' },
  },
  'elicitation-sep1034-defaults': {
    capability: 'tools',
    tool: {
      name: 'test_client_elicitation_defaults',
      behaviour: 'asks the client for elicitation/create with defaults',
    },
  },
  'elicitation-sep1330-enums': {
    capability: 'tools',
    tool: { name: 'test_elicitation_sep1330_enums', behaviour: 'asks the client for elicitation/create with enums' },
  },
  'logging-set-level': { capability: 'logging' },
  'completion-complete': { capability: 'completions', fixture: { kind: 'prompt', name: 'test_prompt_with_arguments' } },
  'resources-list': { capability: 'resources' },
  'resources-read-text': { capability: 'resources', fixture: { kind: 'resource', name: 'test://static-text' } },
  'resources-read-binary': { capability: 'resources', fixture: { kind: 'resource', name: 'test://static-binary' } },
  'resources-templates-read': {
    capability: 'resources',
    fixture: { kind: 'resource template', name: 'test://template/{id}/data' },
  },
  'resources-subscribe': { capability: 'resources.subscribe' },
  'resources-unsubscribe': { capability: 'resources.subscribe' },
  'prompts-list': { capability: 'prompts' },
  'prompts-get-simple': { capability: 'prompts', fixture: { kind: 'prompt', name: 'test_simple_prompt' } },
  'prompts-get-with-args': { capability: 'prompts', fixture: { kind: 'prompt', name: 'test_prompt_with_arguments' } },
  'prompts-get-embedded-resource': {
    capability: 'prompts',
    fixture: { kind: 'prompt', name: 'test_prompt_with_embedded_resource' },
  },
  'prompts-get-with-image': { capability: 'prompts', fixture: { kind: 'prompt', name: 'test_prompt_with_image' } },
};

/** Whether the server declared a capability (`resources.subscribe` is `resources: { subscribe: true }`). */
function declares(capabilities: Record<string, unknown>, capability: NonNullable<ScenarioNeed['capability']>): boolean {
  if (capability === 'resources.subscribe')
    return (capabilities['resources'] as { subscribe?: unknown } | undefined)?.subscribe === true;
  return capabilities[capability] !== undefined;
}

/** Why a scenario does not apply to a server with these capabilities and tools, or undefined when it does. */
export function notApplicableBecause(
  scenario: string,
  capabilities: Record<string, unknown>,
  offer: ServerOffer,
): string | undefined {
  const need = SCENARIO_NEEDS[scenario];
  // A scenario this table does not know (a newer suite) applies: an unknown is never excused.
  if (need === undefined) return undefined;
  if (need.capability !== undefined && !declares(capabilities, need.capability))
    return `needs the ${need.capability} capability, which the server does not declare`;
  if (need.tool !== undefined && !offer.tools.has(need.tool.name)) {
    return (
      `needs the suite's fixture ` +
      `tool ${need.tool.name}${need.tool.behaviour === undefined ? '' : `, a tool that ${need.tool.behaviour}`}, ` +
      `which the server does not list`
    );
  }
  if (need.fixture !== undefined && !offer.fixtures.has(need.fixture.name))
    return `needs the suite's fixture ${need.fixture.kind} ${need.fixture.name}, which the server does not list`;
  return undefined;
}
