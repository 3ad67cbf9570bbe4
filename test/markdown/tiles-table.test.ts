/**
 * The tiled calls in the report: five stretches for a call served in process, six across a pipe (the stdio rows,
 * pipe-tiles.ts), each with its meaning, in a call's order, summed on the last line.
 */
import { describe, expect, it } from 'vitest';
import { tilesTable } from '../../bench/markdown/bench-markdown.js';
import type { McpTransports } from '../../bench/results/results-schema.js';
import { PIPE_TILE_MEANINGS, TILE_MEANINGS } from '../../bench/transports/call-tiles.js';

type Row = McpTransports['transports'][number];
const stats = (p50Us: number) => ({ p50Us, p95Us: p50Us * 2, meanUs: p50Us, n: 2000 });
const row = (transport: Row['transport'], tiles: Row['tiles']): Row => ({
  transport,
  costlab: stats(30),
  bare: stats(20),
  addedP50Us: 10,
  ratioP50: 1.5,
  tiles,
});
const figures = (values: Record<string, number>) => ({ n: 2000, p50Us: values, meanUs: values }) as never;

/**
 * An in-memory row (19 µs summed, the floor's call 3 µs less) and a stdio row (197 µs, the floor's call 16 µs less).
 */
const inProcess = { clientOut: 2, protocolIn: 7, call: 5, protocolOut: 1, clientIn: 4 };
const piped = { clientOut: 9, pipeIn: 60, protocolIn: 20, call: 44, pipeOut: 50, clientIn: 14 };
const TILED_ROWS = [
  row('in-memory', { costlab: figures(inProcess), floor: figures({ ...inProcess, call: 2 }) }),
  row('stdio', { costlab: figures(piped), floor: figures({ ...piped, call: 28 }) }),
];

describe('the tiles table', () => {
  it('prints five stretches in process and six across a pipe, in order, with their sum', () => {
    const text = tilesTable([...TILED_ROWS, row('http', undefined)]);
    expect(text).toContain('The in-memory call, tiled (`bench/transports/call-tiles.ts`)');
    expect(text).toContain('cut every call into five stretches');
    expect(text).toContain('The stdio call, tiled across the pipe (`bench/transports/pipe-tiles.ts`)');
    expect(text).toContain('cut every call into six stretches');
    expect(text).not.toContain('The http call');
    const lines = text
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| stretch') && !line.startsWith('| :-'));
    expect(lines.map((line) => line.split(' | ')[0]!.slice(2))).toEqual([
      ...['clientOut', 'protocolIn', 'call', 'protocolOut', 'clientIn'].map(
        (name) => TILE_MEANINGS[name as keyof typeof TILE_MEANINGS],
      ),
      'the five summed (2000 calls a side)',
      ...['clientOut', 'pipeIn', 'protocolIn', 'call', 'pipeOut', 'clientIn'].map(
        (name) => PIPE_TILE_MEANINGS[name as keyof typeof PIPE_TILE_MEANINGS],
      ),
      'the six summed (2000 calls a side)',
    ]);
    // The call's own difference, and the sums: 19 and 197 µs, the floor's call 3 and 16 µs less.
    const cells = (line: string) => line.split(' | ').map((cell) => cell.trim());
    expect(cells(lines[2]!).slice(1, 4)).toEqual(['5', '2', '+3']);
    expect(cells(lines[5]!).slice(1, 4)).toEqual(['19', '16', '+3']);
    expect(cells(lines[12]!).slice(1, 4)).toEqual(['197', '181', '+16']);
  });

  it("draws each side's mean call stretch by stretch, to one scale, the dearer in 60 cells", () => {
    const text = tilesTable(TILED_ROWS);
    const drawn = text.split('\n').filter((line) => /^(costlab|floor) {2}/.test(line));
    const bars = drawn.map((line) => line.slice(9, 69).trimEnd());
    // In memory 19 µs against 16: 60 cells and 51; over stdio 197 against 181: 60 and 55.
    expect(bars.map((drawing) => drawing.length)).toEqual([60, 51, 60, 55]);
    expect(drawn.map((line) => line.slice(71))).toEqual(['19 µs', '16 µs', '197 µs', '181 µs']);
    // The call's cells, by largest remainder: 5 of 19 µs in 60 cells (15.8: 16), 2 of 16 in 51 (6.4: 6); over the
    // pipe 44 of 197 in 60 (13.4: 14, its remainder among the two largest), 28 of 181 in 55 (8.5: 9).
    expect(bars.map((drawing) => [...drawing].filter((cell) => cell === 'C').length)).toEqual([16, 6, 14, 9]);
    expect(bars[2]!.startsWith('ooo>>>')).toBe(true);
    expect(text).toContain('(o clientOut, p protocolIn, C call, q protocolOut, i clientIn)');
    expect(text).toContain('(o clientOut, > pipeIn, p protocolIn, C call, < pipeOut, i clientIn)');
  });
});
