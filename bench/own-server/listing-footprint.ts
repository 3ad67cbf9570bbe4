/**
 * The listing, tool by tool: what each definition costs a client on the wire
 * (bytes of its JSON) and in a model's context (tokens, counted by
 * gpt-tokenizer's o200k_base encoding — the GPT-4o family's; other models'
 * tokenizers differ by some percent, so the count is an estimate of scale,
 * not any one client's bill), largest first, and the totals against the
 * limits clients impose: 128 tools (VS Code Copilot refuses more) and a
 * token budget (the config's `tokenBudget`).
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { CLIENT_TOOL_LIMIT } from './consistency-rows.js';
import type { Redactor } from './secrets.js';
import type { ListingFootprint } from './target-report-schema.js';

const TOKENIZER = 'gpt-tokenizer o200k_base';

/**
 * Tokens of tool definitions a client may spend before they crowd the
 * conversation out: 10% of a 128k-token context window. A stated budget, not
 * a measured one; the config's `tokenBudget` replaces it.
 */
const DEFAULT_TOKEN_BUDGET = 12_800;

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');

export function listingFootprint(
  tools: readonly Record<string, unknown>[],
  redactor: Redactor,
  tokenBudget = DEFAULT_TOKEN_BUDGET,
): ListingFootprint {
  const rows = tools
    .map((tool) => {
      const text = JSON.stringify(tool);
      return {
        tool: redactor.scrub(typeof tool['name'] === 'string' ? tool['name'] : '(unnamed)'),
        bytes: Buffer.byteLength(text, 'utf8'),
        schemaBytes:
          bytesOf(tool['inputSchema']) + (tool['outputSchema'] === undefined ? 0 : bytesOf(tool['outputSchema'])),
        tokens: countTokens(text),
      };
    })
    .sort((a, b) => b.bytes - a.bytes || a.tool.localeCompare(b.tool));
  const totalBytes = rows.reduce((sum, row) => sum + row.bytes, 0);
  const totalTokens = rows.reduce((sum, row) => sum + row.tokens, 0);
  return {
    tokenizer: TOKENIZER,
    toolCount: rows.length,
    totalBytes,
    totalTokens,
    limits: [
      {
        name: 'tools a client accepts (VS Code Copilot)',
        limit: CLIENT_TOOL_LIMIT,
        unit: 'tools',
        used: rows.length,
        within: rows.length <= CLIENT_TOOL_LIMIT,
      },
      {
        name: 'token budget for tool definitions',
        limit: tokenBudget,
        unit: 'tokens',
        used: totalTokens,
        within: totalTokens <= tokenBudget,
      },
    ],
    tools: rows,
  };
}
