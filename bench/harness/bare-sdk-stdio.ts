/**
 * The child side of the bare SDK server on stdio (`bare-sdk-server.ts`):
 * the SDK's own StdioServerTransport, spawned by the transport bench with
 * `node --import tsx`. It exits when its stdin ends (the client closed).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { bareSdkServer } from './bare-sdk-server.js';

const server = bareSdkServer();
const transport = new StdioServerTransport();
process.stdin.once('end', () => {
  void server.close();
});
await server.connect(transport);
