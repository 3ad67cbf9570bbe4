/** The harness's end of the control channel: it listens, one child connects. */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTROL_HELLO, lineReader } from './control-messages.js';
import type { ControlAnswer, ControlRequest } from './control-messages.js';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Unsent<R> = R extends unknown ? Omit<R, 'id'> : never;

/** A private socket path (a named pipe on Windows) for one child. */
function controlAddress(): string {
  // Short: a Unix socket path is limited to about 100 bytes, and temp directories can be long.
  const name = `costlab-${process.pid}-${randomBytes(6).toString('hex')}`;
  return process.platform === 'win32' ? `\\\\.\\pipe\\${name}` : join(tmpdir(), `${name}.sock`);
}

export class ControlServer {
  readonly address: string;
  readonly #server: Server;
  readonly #connected: Promise<Socket>;
  readonly #pending = new Map<number, Pending>();
  #socket: Socket | undefined;
  #next = 0;

  private constructor(address: string, server: Server, connected: Promise<Socket>) {
    this.address = address;
    this.#server = server;
    this.#connected = connected;
  }

  static async listen(): Promise<ControlServer> {
    const address = controlAddress();
    let accept!: (socket: Socket) => void;
    const connected = new Promise<Socket>((resolve) => {
      accept = resolve;
    });
    const server = createServer((socket) => {
      // One child per channel: a second connection is not the host's child.
      server.close();
      accept(socket);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address, () => resolve());
    });
    return new ControlServer(address, server, connected);
  }

  /** Waits for the child's hello, at most `timeoutMs`. */
  async accepted(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const socket = await Promise.race([
      this.#connected,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the child did not open its control channel within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    this.#socket = socket;
    let greeted!: () => void;
    const hello = new Promise<void>((resolve) => {
      greeted = resolve;
    });
    socket.on(
      'data',
      lineReader((line) => {
        if (line === CONTROL_HELLO) {
          greeted();
          return;
        }
        const answer = JSON.parse(line) as ControlAnswer;
        const pending = this.#pending.get(answer.id);
        if (pending === undefined) return;
        this.#pending.delete(answer.id);
        if (answer.ok) pending.resolve(answer.value);
        else pending.reject(new Error(`the host refused: ${answer.error}`));
      }),
    );
    const broken = (): void => {
      for (const pending of this.#pending.values()) pending.reject(new Error('the control channel closed'));
      this.#pending.clear();
    };
    socket.on('close', broken);
    socket.on('error', broken);
    await hello;
  }

  request(message: Unsent<ControlRequest>): Promise<unknown> {
    const socket = this.#socket;
    if (socket === undefined || socket.destroyed) return Promise.reject(new Error('the control channel is not open'));
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      socket.write(`${JSON.stringify({ ...message, id })}\n`);
    });
  }

  close(): void {
    this.#socket?.destroy();
    this.#server.close();
    if (process.platform !== 'win32') rmSync(this.address, { force: true });
  }
}
