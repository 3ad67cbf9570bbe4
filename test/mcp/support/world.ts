/**
 * Kernels over the reference world for the MCP tests: the same grants and
 * static tools as the bench, with a provider the test can change mid-turn.
 */
import type { MediationKernel, MemoryAuditSink } from '../../../src/kernel/index.js';
import type {
  AuditEvent,
  CatalogueStrategyName,
  ContextToolProvider,
  SpanName,
  SpanSink,
  ToolHandler,
} from '../../../src/kernel/index.js';
import { buildWorldKernel } from '../../../bench/world/build-world.js';
import { NOTION_SEARCH, handlerOf } from '../../../src/world/reference-world.js';

export interface MutableProvider extends ContextToolProvider {
  calls: number;
  /** What every later listTools answers. */
  publish(tools: readonly ToolHandler[]): void;
}

export function mutableProvider(id: string, initial: readonly ToolHandler[]): MutableProvider {
  let current = initial;
  return {
    id,
    calls: 0,
    publish(tools) {
      current = tools;
    },
    async listTools() {
      this.calls++;
      return current;
    },
  };
}

export const notionSearch = (): ToolHandler => handlerOf(NOTION_SEARCH, 'provider:notion');
/** A second provider tool, granted like notion.search, that the provider adds or drops mid-turn. */
export const notionFetch = (): ToolHandler =>
  handlerOf({ ...NOTION_SEARCH, name: 'notion.fetch', description: 'Fetch a Notion page.' }, 'provider:notion');

export interface TestWorld {
  readonly kernel: MediationKernel;
  readonly audit: MemoryAuditSink;
  readonly provider: MutableProvider;
}

export function buildWorld(
  strategy: CatalogueStrategyName = 'turn',
  providerTools: readonly ToolHandler[] = [notionSearch()],
): TestWorld {
  const provider = mutableProvider('notion', providerTools);
  return { ...buildWorldKernel(strategy, [provider]), provider };
}

export interface RecordedSpan {
  readonly name: SpanName;
  readonly callId: string;
  readonly start: number;
  readonly end: number;
}

/**
 * A span sink on a logical clock (each read is the next integer), so span order is exact and no wall time is involved.
 */
export function tickingSpanSink(): SpanSink & { spans: RecordedSpan[] } {
  let tick = 0;
  const spans: RecordedSpan[] = [];
  return {
    spans,
    now: () => ++tick,
    record: (name, callId, start, end) => {
      spans.push({ name, callId, start, end });
    },
  };
}

export function invoked(events: readonly AuditEvent[]): AuditEvent[] {
  return events.filter((event) => event.type === 'tool.invoked');
}
