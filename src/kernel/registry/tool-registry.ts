import { ToolDefinitionSchema, parseContract } from '../contracts/index.js';
import type {
  AccessContext,
  JsonObject,
  ParsedToolCall,
  Requirement,
  ToolDefinition,
  ToolHandler,
  ToolResult,
} from '../contracts/index.js';
import { CATALOGUE_LIMITS, DefinitionTooLarge } from './catalogue-limits.js';
import { deepFreeze } from './deep-freeze.js';
import type { AdmittedDefinition, DefinitionStore } from './definition-store.js';
import { markRegistered } from './registered-definitions.js';

/**
 * One registered tool: a validated, JSON-cloned, deep-frozen definition and
 * the handler's functions bound to their handler. Entries are immutable, so
 * registries may share them (`copy()`), and nothing a handler does to its
 * own definition object afterwards reaches the kernel.
 */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  parseArguments(args: JsonObject): JsonObject;
  resolveRequirement: ((context: AccessContext, call: ParsedToolCall) => Requirement) | undefined;
  invoke(context: AccessContext, call: ParsedToolCall, signal: AbortSignal): Promise<ToolResult>;
}

export class InvalidToolHandler extends Error {
  override readonly name = 'InvalidToolHandler';
  readonly code = 'invalid_tool_handler';
}

export class DuplicateToolName extends Error {
  override readonly name = 'DuplicateToolName';
  readonly code = 'duplicate_tool_name';
  constructor(readonly toolName: string) {
    super(`a tool named '${toolName}' is already registered`);
  }
}

function requireFunction(
  handler: ToolHandler,
  key: 'parseArguments' | 'invoke' | 'resolveRequirement',
  optional: boolean,
): void {
  const fn = (handler as unknown as Record<string, unknown>)[key];
  if (fn === undefined && optional) return;
  if (typeof fn !== 'function')
    throw new InvalidToolHandler(`tool handler '${handler.definition?.name ?? '?'}': ${key} must be a function`);
}

/** Validates, clones, freezes and wraps one handler: the cost of "registering" an entry. */
function registerEntry(handler: ToolHandler): RegisteredTool {
  return registerMeasured(handler).entry;
}

/** registerEntry, also telling the length of the definition's JSON text (the clone computes it anyway). */
function registerMeasured(handler: ToolHandler): { entry: RegisteredTool; chars: number } {
  if (handler === null || typeof handler !== 'object') throw new InvalidToolHandler('a tool handler must be an object');
  const checked = parseContract('ToolDefinition', ToolDefinitionSchema, handler.definition);
  requireFunctions(handler);
  const text = JSON.stringify(checked);
  if (text.length > CATALOGUE_LIMITS.maxDefinitionChars) throw new DefinitionTooLarge(checked.name, text.length);
  const definition = markRegistered(deepFreeze(JSON.parse(text) as ToolDefinition));
  return { entry: bindEntry(handler, definition), chars: text.length };
}

/** Throws InvalidToolHandler unless the handler's functions are functions (resolveRequirement may be absent). */
export function requireFunctions(handler: ToolHandler): void {
  if (hasFunctions(handler)) return;
  requireFunction(handler, 'parseArguments', false);
  requireFunction(handler, 'invoke', false);
  requireFunction(handler, 'resolveRequirement', true);
}

/**
 * Whether `handler` has the functions registration requires. The common case read with constant keys (monomorphic
 * loads), once per provider tool per turn; `requireFunctions` names what is wrong when it fails.
 */
export function hasFunctions(handler: ToolHandler): boolean {
  const resolve = handler.resolveRequirement;
  return (
    typeof handler.parseArguments === 'function' &&
    typeof handler.invoke === 'function' &&
    (resolve === undefined || typeof resolve === 'function')
  );
}

/** The entry: a frozen definition and this handler's functions, called on the handler. */
export function bindEntry(handler: ToolHandler, definition: ToolDefinition): RegisteredTool {
  const resolve = handler.resolveRequirement;
  return Object.freeze({
    definition,
    parseArguments: (args: JsonObject) => handler.parseArguments(args),
    resolveRequirement:
      resolve === undefined
        ? undefined
        : (context: AccessContext, call: ParsedToolCall) => resolve.call(handler, context, call),
    invoke: (context: AccessContext, call: ParsedToolCall, signal: AbortSignal) =>
      handler.invoke(context, call, signal),
  });
}

/**
 * Content-addressed registration (ADR 0009): the definition is admitted
 * through `store` — compiled once per distinct JSON text, reused thereafter —
 * and wrapped with this handler's functions. The handler's functions are
 * checked on every admission, as register() checks them.
 */
function admitEntry(handler: ToolHandler, store: DefinitionStore): { entry: RegisteredTool; chars: number } {
  const { definition, chars } = admitHandler(handler, store);
  // The entry itself is always new: its functions are this handler's (a
  // provider's handlers are typically closures made for this very call), and
  // nothing about a handler is remembered between admissions.
  return { entry: bindEntry(handler, definition), chars };
}

/**
 * The checks of admitEntry without the entry: the definition admitted by
 * content, the handler's functions checked. The `turn` strategy binds an
 * entry only for a tool a call asks for (HeldRegistry).
 */
function admitHandler(handler: ToolHandler, store: DefinitionStore): AdmittedDefinition {
  if (handler === null || typeof handler !== 'object') throw new InvalidToolHandler('a tool handler must be an object');
  const admitted = store.admit(handler.definition);
  requireFunctions(handler);
  return admitted;
}

/**
 * A registered entry seen as a handler again. Registering it repeats the
 * whole cost of registration (validate, clone, freeze) against the frozen
 * definition, never against a host object that may have changed since.
 */
export function entryAsHandler(entry: RegisteredTool): ToolHandler {
  return Object.freeze({
    definition: entry.definition,
    parseArguments: entry.parseArguments,
    invoke: entry.invoke,
    ...(entry.resolveRequirement === undefined ? {} : { resolveRequirement: entry.resolveRequirement }),
  });
}

/** Name → registered tool. An EffectiveRegistry without a shape (`rederive`, `shared`). */
export class ToolRegistry {
  readonly #entries: Map<string, RegisteredTool>;
  #sorted: readonly RegisteredTool[] | undefined;
  #definitions: readonly ToolDefinition[] | undefined;
  readonly shape = undefined;

  constructor(entries?: Map<string, RegisteredTool>) {
    this.#entries = entries ?? new Map();
  }

  /** Registers a handler; throws ContractViolation, InvalidToolHandler or DuplicateToolName. */
  register(handler: ToolHandler): RegisteredTool {
    const entry = registerEntry(handler);
    this.add(entry);
    return entry;
  }

  /** register(), also telling the length of the definition's JSON text. */
  registerMeasured(handler: ToolHandler): { entry: RegisteredTool; chars: number } {
    const measured = registerMeasured(handler);
    this.add(measured.entry);
    return measured;
  }

  /** Admits a handler through a content-addressed store (ADR 0009); throws as register() does. */
  admit(handler: ToolHandler, store: DefinitionStore): { entry: RegisteredTool; chars: number } {
    const admitted = admitEntry(handler, store);
    this.add(admitted.entry);
    return admitted;
  }

  /** Adds an already-registered entry (shared, not re-validated). */
  add(entry: RegisteredTool): void {
    const { name } = entry.definition;
    if (this.#entries.has(name)) throw new DuplicateToolName(name);
    this.#entries.set(name, entry);
    this.#sorted = undefined;
    this.#definitions = undefined;
  }

  /**
   * A new registry over the same frozen entries: a map copy, nothing
   * re-validated. This is the step that took a mediated call from 8.23 ms to
   * 2.44 ms in the reproduced history (published: reference/anchor-figures.json).
   */
  copy(): ToolRegistry {
    return new ToolRegistry(new Map(this.#entries));
  }

  get(name: string): RegisteredTool | undefined {
    return this.#entries.get(name);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Entries in name order (code-unit order), cached until the next add. */
  list(): readonly RegisteredTool[] {
    if (this.#sorted === undefined) {
      this.#sorted = Object.freeze(
        [...this.#entries.values()].sort((a, b) =>
          a.definition.name < b.definition.name ? -1 : a.definition.name > b.definition.name ? 1 : 0,
        ),
      );
    }
    return this.#sorted;
  }

  definitions(): readonly ToolDefinition[] {
    if (this.#definitions === undefined)
      this.#definitions = Object.freeze(this.list().map((entry) => entry.definition));
    return this.#definitions;
  }
}
