import type { Socket } from 'node:net';

interface Tracked {
  /** Requests whose body has been read and whose response has not finished: work in hand, never preempted. */
  busy: number;
}

/**
 * A cap on open connections that a flood cannot use to lock legitimate
 * clients out. Past the cap the connection that has gone longest without
 * progress (a request's headers, a piece of its body, the end of a
 * response) and has no request in hand is closed to make room, so idle or
 * stalled sockets are the ones that go, not a client between two calls and
 * not a stream in use. If every connection is busy, the newcomer is closed.
 * The map is kept in order of last progress (a touch moves a socket to the
 * end), so the candidate is found from the front.
 */
export class ConnectionAdmission {
  readonly #max: number;
  readonly #sockets = new Map<Socket, Tracked>();
  #preempted = 0;

  constructor(maxConnections: number) {
    this.#max = maxConnections;
  }

  get size(): number {
    return this.#sockets.size;
  }

  /** Connections closed to make room for a newer one. */
  get preempted(): number {
    return this.#preempted;
  }

  admit(socket: Socket): void {
    this.#sockets.set(socket, { busy: 0 });
    socket.once('close', () => this.#sockets.delete(socket));
    if (this.#sockets.size <= this.#max) return;
    for (const [candidate, tracked] of this.#sockets) {
      if (tracked.busy > 0 || candidate === socket) continue;
      this.#preempted++;
      this.#sockets.delete(candidate);
      candidate.destroy();
      return;
    }
    this.#sockets.delete(socket);
    socket.destroy();
  }

  /** The connection did something: it moves to the back of the preemption order. */
  progress(socket: Socket): void {
    const tracked = this.#sockets.get(socket);
    if (tracked === undefined) return;
    this.#sockets.delete(socket);
    this.#sockets.set(socket, tracked);
  }

  /** A request on this connection has its body and is being served; `release` when its response ends. */
  hold(socket: Socket): () => void {
    const tracked = this.#sockets.get(socket);
    if (tracked === undefined) return () => undefined;
    tracked.busy++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      tracked.busy--;
      this.progress(socket);
    };
  }
}
