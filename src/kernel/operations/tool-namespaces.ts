import { z } from 'zod';
import { isAbortError } from '../abort.js';
import { ContractViolation, IdSchema } from '../contracts/index.js';
import type { EffectiveRegistry } from '../registry/effective-registry.js';
import { describeThrown } from '../thrown-value.js';
import { enterOperation } from './enter-operation.js';
import type { Refusal } from './enter-operation.js';
import type { KernelCore, OperationOptions } from './kernel-core.js';

export interface ToolNamespaceState {
  readonly namespace: string;
  readonly enabled: boolean;
  readonly toolCount: number;
}

type NamespaceRefusalCode =
  | 'invalid_context'
  | 'invalid_request'
  | 'authority_unavailable'
  | 'tool_catalog_unavailable'
  | 'namespace_settings_unavailable';

export type NamespaceListing =
  | { readonly status: 'listed'; readonly namespaces: readonly ToolNamespaceState[] }
  | { readonly status: 'denied' | 'failed'; readonly code: NamespaceRefusalCode; readonly message: string };

export type NamespaceUpdate =
  | { readonly status: 'updated'; readonly enabled: readonly string[] }
  | { readonly status: 'denied' | 'failed'; readonly code: NamespaceRefusalCode; readonly message: string };

const NamespaceChangeSchema = z
  .strictObject({
    enable: z.array(IdSchema).max(256).optional(),
    disable: z.array(IdSchema).max(256).optional(),
  })
  .refine((c) => !(c.enable ?? []).some((id) => (c.disable ?? []).includes(id)), {
    message: 'a namespace cannot be enabled and disabled at once',
  });

/** A refusal of the opening, as the control plane answers it. */
function refusalOf(refusal: Refusal<NamespaceRefusalCode>): {
  status: 'denied' | 'failed';
  code: NamespaceRefusalCode;
  message: string;
} {
  return { status: refusal.status, code: refusal.code, message: refusal.message };
}

function namespacesOf(registry: EffectiveRegistry): ReadonlyMap<string, number> {
  if (registry.shape !== undefined) return registry.shape.namespaceCounts();
  const counts = new Map<string, number>();
  for (const definition of registry.definitions())
    counts.set(definition.namespace, (counts.get(definition.namespace) ?? 0) + 1);
  return counts;
}

/** The namespace control plane: which tool namespaces exist for this turn and which are enabled. */
export async function listToolNamespaces(
  core: KernelCore,
  contextInput: unknown,
  options: OperationOptions = {},
): Promise<NamespaceListing> {
  const entering = enterOperation(core, contextInput, {
    type: 'tool.namespace.catalog.listed',
    reach: 'catalogue',
    signal: options.signal,
  });
  const entered = entering instanceof Promise ? await entering : entering;
  if (entered.refused) return refusalOf(entered.refusal);
  const { prepared, registry } = entered;
  const namespaces = [...namespacesOf(registry)]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([namespace, toolCount]) =>
      Object.freeze({ namespace, enabled: prepared.enabledNamespaces.has(namespace), toolCount }),
    );
  await core.trail.outcome(
    core.trail.event(prepared, 'tool.namespace.catalog.listed', 'succeeded', {
      source: 'kernel',
      metadata: {
        namespaces: namespaces.map((n) => n.namespace),
        enabled: namespaces.filter((n) => n.enabled).map((n) => n.namespace),
      },
    }),
  );
  return { status: 'listed', namespaces: Object.freeze(namespaces) };
}

/**
 * Enables or disables tool namespaces through the host's settings port. Only
 * namespaces the turn's registry knows may be named. Enablement is not part
 * of the turn key, so the host's next context carries the new selection and
 * it takes effect within this turn.
 */
export async function updateToolNamespaces(
  core: KernelCore,
  contextInput: unknown,
  changeInput: unknown,
  options: OperationOptions = {},
): Promise<NamespaceUpdate> {
  const type = 'tool.namespace.selection.updated';
  const entering = enterOperation(core, contextInput, { type, reach: 'catalogue', signal: options.signal });
  const entered = entering instanceof Promise ? await entering : entering;
  if (entered.refused) return refusalOf(entered.refusal);
  const { prepared, registry } = entered;
  const refuse = async (
    status: 'denied' | 'failed',
    code: NamespaceRefusalCode,
    message: string,
  ): Promise<NamespaceUpdate> => {
    await core.trail.outcome(
      core.trail.event(prepared, type, status, { reason: code, source: 'kernel', metadata: { message } }),
    );
    return { status, code, message };
  };
  const parsed = NamespaceChangeSchema.safeParse(changeInput);
  if (!parsed.success)
    return refuse('denied', 'invalid_request', new ContractViolation('NamespaceChange', parsed.error.issues).message);
  const change = { enable: parsed.data.enable ?? [], disable: parsed.data.disable ?? [] };
  const known = namespacesOf(registry);
  const unknown = [...change.enable, ...change.disable].filter((id) => !known.has(id));
  if (unknown.length > 0)
    return refuse('denied', 'invalid_request', `unknown tool namespace(s): ${unknown.join(', ')}`);
  if (core.namespaceSettings === undefined)
    return refuse('failed', 'namespace_settings_unavailable', 'the host has no namespace settings store');
  let enabled: readonly string[];
  try {
    enabled = await core.namespaceSettings.update(
      prepared.context,
      change,
      options.signal ?? new AbortController().signal,
    );
  } catch (error) {
    if (isAbortError(error, options.signal)) throw error;
    return refuse(
      'failed',
      'namespace_settings_unavailable',
      `the namespace settings store failed: ${describeThrown(error)}`,
    );
  }
  await core.trail.outcome(
    core.trail.event(prepared, type, 'succeeded', {
      source: 'kernel',
      metadata: { enable: [...change.enable], disable: [...change.disable], enabled: [...enabled] },
    }),
  );
  return { status: 'updated', enabled: Object.freeze([...enabled]) };
}
