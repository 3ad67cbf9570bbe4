import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChildPrintedNoJson,
  ChildProcessFailed,
  interleave,
  roundFirsts,
  type ProcessSpec,
} from '../../bench/gate/interleave.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gate-interleave-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A child that appends its letter to a shared log (to show the run order) and prints a JSON result. */
function child(letter: string, log: string, result: object): ProcessSpec {
  const code =
    `require('node:fs').appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(letter)}); ` +
    "console.log('warming up'); " +
    `console.log(JSON.stringify(${JSON.stringify(result)}));`;
  return { command: process.execPath, args: ['-e', code] };
}

function nodeEval(code: string): ProcessSpec {
  return { command: process.execPath, args: ['-e', code] };
}

describe('interleave', () => {
  it('alternates fresh processes ABBA and collects each side’s JSON', async () => {
    const log = join(dir, 'abba.log');
    const progress: string[] = [];
    const result = await interleave<{ side: string }>(
      child('A', log, { side: 'base' }),
      child('B', log, { side: 'head' }),
      {
        rounds: 4,
        onProgress: (line) => progress.push(line),
      },
    );
    expect(await readFile(log, 'utf8')).toBe('ABBAABBA');
    expect(result.base).toEqual(Array.from({ length: 4 }, () => ({ side: 'base' })));
    expect(result.head).toEqual(Array.from({ length: 4 }, () => ({ side: 'head' })));
    expect(result.firsts).toEqual(['base', 'head', 'base', 'head']);
    expect(progress).toEqual(['round 1/4', 'round 2/4', 'round 3/4', 'round 4/4']);
  });

  it('runs one of each per round in seeded random order', async () => {
    const log = join(dir, 'random.log');
    const result = await interleave(child('A', log, {}), child('B', log, {}), {
      rounds: 6,
      order: 'random',
      seed: 5,
      onProgress: () => {},
    });
    const runs = await readFile(log, 'utf8');
    const pairs = runs.match(/../g) ?? [];
    expect(pairs).toHaveLength(6);
    for (const [r, pair] of pairs.entries()) expect(pair).toBe(result.firsts[r] === 'base' ? 'AB' : 'BA');
    expect(new Set(result.firsts)).toEqual(new Set(['base', 'head'])); // this seed exercises both orders
    expect(result.firsts).toEqual(roundFirsts(6, 'random', 5));
  });

  it('applies the caller’s parser to each result', async () => {
    const result = await interleave(
      nodeEval('console.log(JSON.stringify({ us: 12.5 }))'),
      nodeEval('console.log(JSON.stringify({ us: 13 }))'),
      {
        rounds: 2,
        parse: (value) => (value as { us: number }).us,
        onProgress: () => {},
      },
    );
    expect(result).toMatchObject({ base: [12.5, 12.5], head: [13, 13] });
  });

  it('names the side and round of a child that exits non-zero, quoting its stderr', async () => {
    const error = await interleave(
      nodeEval('console.log("{}")'),
      nodeEval('console.error("catalogue exploded"); process.exit(3)'),
      {
        rounds: 2,
        onProgress: () => {},
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildProcessFailed);
    expect(error).toMatchObject({ code: 'ChildProcessFailed', side: 'head', round: 1, exitCode: 2 });
    expect((error as Error).message).toMatch(/head child in round 1 ended with exit code 3\ncatalogue exploded/);
  });

  it('names a child that printed no JSON', async () => {
    const error = await interleave(
      nodeEval('console.log("just text"); console.log(42)'),
      nodeEval('console.log("{}")'),
      {
        rounds: 1,
        onProgress: () => {},
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildPrintedNoJson);
    expect(error).toMatchObject({ side: 'base', round: 1 });
  });

  it('names a child whose JSON the parser rejects', async () => {
    const error = await interleave(nodeEval('console.log("{}")'), nodeEval('console.log("{}")'), {
      rounds: 1,
      parse: () => {
        throw new Error('missing field us');
      },
      onProgress: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildPrintedNoJson);
    expect((error as Error).message).toMatch(/rejected: missing field us/);
  });

  it('names a command that cannot start', async () => {
    const error = await interleave({ command: join(dir, 'no-such-binary'), args: [] }, nodeEval('console.log("{}")'), {
      rounds: 1,
      onProgress: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildProcessFailed);
    expect((error as Error).message).toMatch(/could not start \(ENOENT\)/);
  });

  it('rejects a non-positive round count', async () => {
    await expect(interleave(nodeEval(''), nodeEval(''), { rounds: 0 })).rejects.toThrow(RangeError);
  });
});
