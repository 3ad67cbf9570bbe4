/** The child's end of the control channel: it connects, says hello, and serves the host's requests. */
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { CONTROL_HELLO, lineReader } from './control-messages.js';
import type { ControlAnswer, ControlRequest } from './control-messages.js';
import { describeThrown } from '../../kernel/thrown-value.js';

export interface ControlHandler {
  handle(request: ControlRequest): unknown;
}

export interface ControlClient {
  /** Settles once the harness has sent (and the handler applied) the replay of earlier setup. */
  readonly replayed: Promise<void>;
  close(): void;
}

export async function attachControl(address: string, handler: ControlHandler): Promise<ControlClient> {
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(address, () => resolve(s));
    s.once('error', reject);
  });
  let replayed!: () => void;
  const replay = new Promise<void>((resolve) => {
    replayed = resolve;
  });
  const answer = (message: ControlAnswer): void => {
    socket.write(`${JSON.stringify(message)}\n`);
  };
  socket.on(
    'data',
    lineReader((line) => {
      const request = JSON.parse(line) as ControlRequest;
      try {
        const value = handler.handle(request);
        answer({ id: request.id, ok: true, ...(value === undefined ? {} : { value }) });
      } catch (error) {
        answer({ id: request.id, ok: false, error: describeThrown(error) });
      }
      if (request.kind === 'replay') replayed();
    }),
  );
  socket.on('error', () => undefined);
  // Once the turn is open, the MCP connection decides when this process ends, not the side channel.
  void replay.then(() => socket.unref());
  socket.write(`${CONTROL_HELLO}\n`);
  return { replayed: replay, close: () => socket.destroy() };
}
