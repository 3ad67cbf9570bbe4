/** ContextToolProviders a test can script: what they answer may change between resolutions, or never come. */
import type { AccessContext, ContextToolProvider, ToolHandler } from '../../../src/kernel/index.js';
import { deferred } from './deferred.js';
import type { Deferred } from './deferred.js';

export interface ProviderCall {
  readonly context: AccessContext;
  readonly signal: AbortSignal;
}

/**
 * Answers the n-th resolution (1-based) with `answer(n, context)`: handlers,
 * garbage, a throw — a live provider whose catalogue may differ between two
 * resolutions. `log`, when shared between providers, records the order they
 * were asked in.
 */
export class ScriptedProvider implements ContextToolProvider {
  readonly calls: ProviderCall[] = [];

  constructor(
    readonly id: string,
    private readonly answer: (resolution: number, context: AccessContext) => unknown,
    private readonly log?: string[],
  ) {}

  async listTools(context: AccessContext, signal: AbortSignal): Promise<readonly ToolHandler[]> {
    this.calls.push({ context, signal });
    this.log?.push(this.id);
    return this.answer(this.calls.length, context) as readonly ToolHandler[];
  }
}

export function fixedProvider(id: string, handlers: readonly ToolHandler[], log?: string[]): ScriptedProvider {
  return new ScriptedProvider(id, () => handlers, log);
}

/**
 * A provider whose every resolution waits until the test settles it. A test
 * that never settles it has a provider that hangs — and that ignores its
 * signal, so only the kernel's abort handling can end the wait.
 */
export class DeferredProvider implements ContextToolProvider {
  readonly calls: ProviderCall[] = [];
  readonly pending: Deferred<readonly ToolHandler[]>[] = [];

  constructor(readonly id: string) {}

  listTools(context: AccessContext, signal: AbortSignal): Promise<readonly ToolHandler[]> {
    this.calls.push({ context, signal });
    const answer = deferred<readonly ToolHandler[]>();
    this.pending.push(answer);
    return answer.promise;
  }

  /** Answers the latest pending resolution. */
  answer(handlers: readonly ToolHandler[]): void {
    this.pending.at(-1)!.resolve(handlers);
  }
}
