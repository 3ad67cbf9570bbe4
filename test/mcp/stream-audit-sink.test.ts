/**
 * StreamAuditSink on a real pipe whose reader is stopped (`cat`, sent
 * SIGSTOP) and then let go (SIGCONT): what the sink accepts, refuses and
 * finally delivers.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/kernel/index.js';
import { AuditBackpressure, StreamAuditSink } from '../../src/mcp/stream-audit-sink.js';

const children: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
});

/**
 * A pipe into `cat`, its reader stopped; `resume` lets it read again and resolves with all it read once the pipe is
 * closed.
 */
function stalledPipe() {
  const child = spawn('cat', [], { stdio: ['pipe', 'pipe', 'ignore'] });
  children.push(child);
  child.kill('SIGSTOP');
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<string>((resolve) =>
    child.stdout!.once('end', () => resolve(Buffer.concat(chunks).toString('utf8'))),
  );
  return {
    stream: child.stdin!,
    resume: () => {
      child.kill('SIGCONT');
      child.stdin!.end();
      return done;
    },
  };
}

const pad = 'x'.repeat(400);
const event = (type: string, operationId: string, outcome = 'succeeded') =>
  ({ type, outcome, operationId, pad }) as unknown as AuditEvent;

type Fate = 'accepted' | 'refused' | 'pending';

async function fateOf(write: () => void | Promise<void>): Promise<{ fate: Promise<Fate>; sync: boolean }> {
  try {
    const pending = write();
    if (pending === undefined) return { fate: Promise.resolve('accepted'), sync: true };
    return {
      fate: pending.then(
        () => 'accepted' as const,
        (error: unknown) => {
          expect(error).toBeInstanceOf(AuditBackpressure);
          return 'refused' as const;
        },
      ),
      sync: false,
    };
  } catch (error) {
    expect(error).toBeInstanceOf(AuditBackpressure);
    return { fate: Promise.resolve('refused'), sync: true };
  }
}

describe('StreamAuditSink with a stalled reader', () => {
  it('bounds its buffer, refuses rather than drops, delivers exactly what it accepted once read again', async () => {
    const pipe = stalledPipe();
    const sink = new StreamAuditSink(pipe.stream, { maxBufferedBytes: 32 * 1024, maxWaitMs: 100 });
    const fates: Array<{ id: string; fate: Promise<Fate> }> = [];
    for (let i = 0; i < 1000; i++) {
      const id = `op-${i}`;
      fates.push({ id, fate: (await fateOf(() => sink.write(event('tool.catalog.listed', id)))).fate });
      expect(sink.bufferedBytes).toBeLessThanOrEqual(32 * 1024 + 1024);
    }
    // Those past the bound waited 100 ms and were refused; those in the buffer settle only once the reader reads.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const read = await pipe.resume();
    const outcome = await Promise.all(fates.map((f) => f.fate));
    const refused = new Set(fates.filter((_, i) => outcome[i] === 'refused').map((f) => f.id));
    expect(refused.size).toBeGreaterThan(0);
    expect(outcome.filter((fate) => fate === 'accepted').length).toBe(1000 - refused.size);
    const delivered = read
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => (JSON.parse(line) as { operationId: string }).operationId);
    // Every record is delivered whole, once, or was refused: none accepted and lost, none refused and written.
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(delivered.length + refused.size).toBe(1000);
    expect(delivered.some((id) => refused.has(id))).toBe(false);
  });

  it('never refuses the outcome of an accepted allowed decision: the call waits for the reader instead', async () => {
    const pipe = stalledPipe();
    const sink = new StreamAuditSink(pipe.stream, { maxBufferedBytes: 16 * 1024, maxWaitMs: 50 });
    const decision = await fateOf(() => sink.write(event('authorization.checked', 'owed', 'allowed')));
    // Fill the buffer past its bound with other records (the pipe itself takes its own 64 KiB first).
    let filler = 0;
    while (sink.bufferedBytes < 16 * 1024)
      void (await fateOf(() => sink.write(event('tool.catalog.listed', `f-${filler++}`)))).fate;
    const other = await fateOf(() => sink.write(event('tool.invoked', 'not-owed')));
    expect(await other.fate).toBe('refused');
    const owed = await fateOf(() => sink.write(event('tool.invoked', 'owed')));
    expect(await decision.fate).toBe('accepted');
    let owedSettled: Fate | undefined;
    void owed.fate.then((fate) => (owedSettled = fate));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(owedSettled).toBeUndefined();
    const read = await pipe.resume();
    expect(await owed.fate).toBe('accepted');
    expect(read).toContain('"operationId":"owed"');
    expect(read).not.toContain('"operationId":"not-owed"');
  });
});
