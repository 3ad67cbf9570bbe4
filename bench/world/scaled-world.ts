/**
 * The reference world at catalogue scale: the same static tools and grants,
 * its provider contributing `notion.search` plus `extraTools` more tools of
 * the same shape (`notion.page_0000` …). The gate's scale lane counts the
 * catalogue segment here and in the reference world, so a cost that grows
 * with each provider tool shows in the slope between the two.
 */
import type { CatalogueStrategyName, ContextToolProvider, SpanSink, ToolHandler } from '../../src/kernel/index.js';
import { handlerOf, NOTION_SEARCH } from '../../src/world/index.js';
import { buildWorldKernel } from './build-world.js';
import type { ReferenceKernel } from './build-world.js';

/** The scale lane's second size: 1,000 provider tools beyond the reference world's one. */
export const SCALED_PROVIDER_TOOLS = 1000;

/** A provider answering `handlers` on every call, counting its calls. */
export function countingProvider(
  id: string,
  handlers: readonly ToolHandler[],
): ContextToolProvider & { calls: number } {
  return {
    id,
    calls: 0,
    async listTools() {
      this.calls++;
      return handlers;
    },
  };
}

/** A provider answering the same handlers every turn, as a user's own MCP server with a large catalogue would. */
export function scaledNotionProvider(extraTools: number, id = 'notion'): ContextToolProvider & { calls: number } {
  if (!Number.isInteger(extraTools) || extraTools < 0)
    throw new RangeError(`extraTools must be a non-negative integer, got ${extraTools}`);
  const source = `provider:${id}`;
  const handlers: ToolHandler[] = [handlerOf(NOTION_SEARCH, source)];
  for (let i = 0; i < extraTools; i++) {
    const name = `notion.page_${String(i).padStart(4, '0')}`;
    handlers.push(
      handlerOf(
        { ...NOTION_SEARCH, name, description: `Search one page tree of the user's Notion workspace (${name}).` },
        source,
      ),
    );
  }
  return countingProvider(id, handlers);
}

/** A kernel over the reference world whose provider serves `extraTools` more tools. */
export function buildScaledKernel(
  strategy: CatalogueStrategyName,
  extraTools: number,
  spanSink?: SpanSink,
): ReferenceKernel {
  const provider = scaledNotionProvider(extraTools);
  return { ...buildWorldKernel(strategy, [provider], spanSink), provider };
}
