import { readFileSync } from 'node:fs';

/**
 * What one `costlab serve --http` process will hold for clients it has not
 * yet served. Every bound is explicit, so an idle or stalled peer costs a
 * known amount for a known time (issue 14, defect 6: 1,100 idle connections
 * under `ulimit -n 1024` made every legitimate call fail, and 2,000 stalled
 * bodies took RSS to 544 MB).
 */
export interface HttpLimits {
  /**
   * Open connections at most; a new one past this preempts the one longest without progress (see ConnectionAdmission).
   */
  readonly maxConnections: number;
  /** From accepting a connection (or the end of its last response) to the end of the next request's headers. */
  readonly headersTimeoutMs: number;
  /** From accepting a request's headers to the end of its body. */
  readonly bodyTimeoutMs: number;
  /** A kept-alive connection with no request in flight is closed after this long. */
  readonly keepAliveTimeoutMs: number;
  /** A body larger than this is refused 413 (the SDK's own bound). */
  readonly maxBodyBytes: number;
  /** Bodies up to this size are always read; an ordinary MCP call is a few hundred bytes. */
  readonly smallBodyBytes: number;
  /**
   * Bodies over `smallBodyBytes` and up to this size draw on their own budget, not the large bodies': a 100 KB call
   * never waits behind megabyte bodies (ADR 0041; behind one shared budget it waited for the flood of them).
   */
  readonly mediumBodyBytes: number;
  /**
   * What the medium bodies in flight may hold together; one that does not fit waits, unread, for another medium body to
   * end.
   */
  readonly mediumBodyBudgetBytes: number;
  /**
   * What the larger bodies in flight may hold together; one that does not fit waits, unread; one of undeclared length
   * is refused 503 `server_busy`.
   */
  readonly largeBodyBudgetBytes: number;
}

const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({
  maxConnections: 4096,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxBodyBytes: 4 * 1024 * 1024,
  smallBodyBytes: 16 * 1024,
  mediumBodyBytes: 256 * 1024,
  mediumBodyBudgetBytes: 16 * 1024 * 1024,
  largeBodyBudgetBytes: 64 * 1024 * 1024,
});

/**
 * Descriptors kept back from the connection cap for everything else the
 * process opens: the audit file, upstream servers' pipes, modules, the
 * listening socket.
 */
const RESERVED_DESCRIPTORS = 64;

/** The soft limit on open files (Linux `/proc/self/limits`), or undefined where it cannot be read. */
function openFileSoftLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line === undefined ? undefined : Number(line.slice('Max open files'.length).trim().split(/\s+/)[0]);
    return soft !== undefined && Number.isSafeInteger(soft) && soft > 0 ? soft : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The limits in force: the caller's over the defaults, with the connection
 * cap kept under the descriptor limit. Past that limit `accept` fails and
 * libuv resets every new connection, legitimate or not; under it, a new
 * connection can always be accepted and an old one preempted.
 */
export function resolveHttpLimits(overrides: Partial<HttpLimits> = {}, fdLimit = openFileSoftLimit()): HttpLimits {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...overrides };
  const ceiling = fdLimit === undefined ? limits.maxConnections : Math.max(1, fdLimit - RESERVED_DESCRIPTORS);
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new RangeError(`HTTP limit ${name} must be a positive integer, got ${String(value)}`);
  }
  if (limits.smallBodyBytes > limits.maxBodyBytes)
    throw new RangeError('HTTP limit smallBodyBytes must not exceed maxBodyBytes');
  if (limits.mediumBodyBytes < limits.smallBodyBytes)
    throw new RangeError('HTTP limit mediumBodyBytes must not be below smallBodyBytes');
  if (limits.mediumBodyBytes > limits.mediumBodyBudgetBytes)
    throw new RangeError('HTTP limit mediumBodyBudgetBytes must hold at least one medium body');
  return Object.freeze({ ...limits, maxConnections: Math.min(limits.maxConnections, ceiling) });
}
