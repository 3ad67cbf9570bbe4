/**
 * The `mcpServers` entry an MCP client (a desktop app, an IDE, an agent
 * harness) needs to reach `costlab serve`: printed by the command so what a
 * user copies is exactly what the server expects.
 */
export type McpServerEntry =
  | { readonly command: string; readonly args: readonly string[] }
  | { readonly type: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

export function stdioClientConfig(
  command: string,
  args: readonly string[],
  name = 'costlab',
): { mcpServers: Record<string, McpServerEntry> } {
  return { mcpServers: { [name]: { command, args: [...args] } } };
}

export function httpClientConfig(
  url: URL,
  token: string,
  name = 'costlab',
): { mcpServers: Record<string, McpServerEntry> } {
  return { mcpServers: { [name]: { type: 'http', url: url.href, headers: { Authorization: `Bearer ${token}` } } } };
}
