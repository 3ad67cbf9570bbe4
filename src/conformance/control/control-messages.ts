/**
 * The host's side channel to a world served by a child process. Trusted
 * setup (advancing the clock, recording a revocation) and reading the host's
 * audit trail are the host's own business: they must never travel on the MCP
 * connection being judged, so they get a channel of their own.
 *
 * Line-delimited JSON. The child says hello; the harness answers with the
 * setup already performed in earlier turns (`replay`), before the child opens
 * its turn; then `setup` and `recorded` requests, one answer each.
 */
import type { SetupStep } from '../world/world-arena.js';

export type ControlRequest =
  | { readonly id: number; readonly kind: 'replay'; readonly steps: readonly SetupStep[] }
  | { readonly id: number; readonly kind: 'setup'; readonly step: SetupStep }
  | { readonly id: number; readonly kind: 'recorded'; readonly callId: string };

export type ControlAnswer =
  | { readonly id: number; readonly ok: true; readonly value?: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string };

export const CONTROL_HELLO = 'costlab-conformance-host/1';

/** Splits a stream of text into lines, handing each complete one on. */
export function lineReader(onLine: (line: string) => void): (chunk: Buffer | string) => void {
  let pending = '';
  return (chunk) => {
    pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim().length > 0) onLine(line);
    }
  };
}
