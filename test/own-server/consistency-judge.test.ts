/** The judge on observations built by hand: the rules that real servers in the other tests do not reach. */
import { describe, expect, it } from 'vitest';
import {
  CLIENT_TOOL_LIMIT,
  ROW_IDS,
  failedTargetRows,
  judgeConsistency,
  listingDifference,
} from '../../bench/own-server/consistency-rows.js';
import type { CallCost } from '../../bench/own-server/target-report-schema.js';
import type { IdentityObservation, ListingSeen } from '../../bench/own-server/consistency-rows.js';
import { ANONYMOUS } from '../../bench/own-server/target-config.js';

const tool = (name: string, type = 'object') => ({ name, inputSchema: { type } });
const listing = (
  tools: Record<string, unknown>[],
  noticesBefore = 0,
  result: Record<string, unknown> = {},
): ListingSeen => ({ tools, result: { tools, ...result }, noticesBefore, frame: undefined });
const observe = (listings: ListingSeen[], declaresListChanged = false): IdentityObservation => ({
  identity: ANONYMOUS,
  declaresListChanged,
  listings,
  unlisted: { name: 'costlab-unlisted-x', refused: true, how: 'refused', frames: [] },
});
const verdictOf = (observations: IdentityObservation[], id: string) =>
  judgeConsistency(observations).find((row) => row.id === id)!.verdict;

describe('the consistency judge', () => {
  it('allows a listing change announced by list_changed, and fails an unannounced one', () => {
    const announced = observe([listing([tool('a')]), listing([tool('a'), tool('b')], 1)], true);
    expect(verdictOf([announced], 'listing-stable')).toBe('pass');
    expect(verdictOf([announced], 'list-changed-false-honoured')).toBe('not_applicable');
    const silent = observe([listing([tool('a')]), listing([tool('a'), tool('b')])], true);
    expect(verdictOf([silent], 'listing-stable')).toBe('fail');
  });

  it('counts a reordering as a change, and names it', () => {
    expect(listingDifference(listing([tool('a'), tool('b')]), listing([tool('b'), tool('a')]))).toBe(
      'same tools in another order',
    );
    expect(
      verdictOf([observe([listing([tool('a'), tool('b')]), listing([tool('b'), tool('a')])])], 'listing-stable'),
    ).toBe('fail');
  });

  it('fails a list_changed notification from a server that declared listChanged: false', () => {
    const row = judgeConsistency([observe([listing([tool('a')]), listing([tool('a')], 1)])]).find(
      (r) => r.id === 'list-changed-false-honoured',
    )!;
    expect(row.verdict).toBe('fail');
    expect(row.detail).toContain('1 list_changed notification');
  });

  it('fails an unlisted name answered as a success', () => {
    const accepted: IdentityObservation = {
      ...observe([listing([tool('a')])]),
      unlisted: { name: 'ghost', refused: false, how: 'answered as a success', frames: [] },
    };
    expect(verdictOf([accepted], 'unlisted-name-refused')).toBe('fail');
  });

  it('warns past the client limit of 128 tools, and passes at it', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => tool(`t${i}`));
    expect(verdictOf([observe([listing(many(CLIENT_TOOL_LIMIT))])], 'tool-count-within-client-limit')).toBe('pass');
    expect(verdictOf([observe([listing(many(CLIENT_TOOL_LIMIT + 1))])], 'tool-count-within-client-limit')).toBe('warn');
  });

  it('fails an input schema that is not an object schema', () => {
    const row = judgeConsistency([observe([listing([tool('a', 'string')])])]).find(
      (r) => r.id === 'input-schemas-valid',
    )!;
    expect([row.verdict, row.detail]).toEqual(['fail', 'a: inputSchema.type is "string", not "object"']);
  });

  it('passes a public cacheScope when every identity sees the same listing', () => {
    const alice = {
      ...observe([listing([tool('a')], 0, { ttlMs: 1000, cacheScope: 'public' })]),
      identity: { ...ANONYMOUS, name: 'alice' },
    };
    const bob = {
      ...observe([listing([tool('a')], 0, { ttlMs: 1000, cacheScope: 'public' })]),
      identity: { ...ANONYMOUS, name: 'bob' },
    };
    expect(verdictOf([alice, bob], 'cache-scope-private')).toBe('pass');
  });

  it(
    'never passes a row on no observation: one listing, or none, ' +
      'is not_exercised or error, and the row counts what it saw',
    () => {
      const once = observe([listing([tool('a')])]);
      const rows = Object.fromEntries(judgeConsistency([once]).map((row) => [row.id, row]));
      expect(rows['listing-stable']!.verdict).toBe('not_exercised');
      expect(rows['list-changed-false-honoured']!.verdict).toBe('not_exercised');
      expect(rows['list-changed-false-honoured']!.observations).toBe(0);
      const dead: IdentityObservation = {
        identity: ANONYMOUS,
        declaresListChanged: false,
        listings: [],
        failure: { code: 'target_exited', message: 'target_exited: the connection closed during initialize' },
      };
      const verdicts = judgeConsistency([dead]).map((row) => row.verdict);
      expect(verdicts).not.toContain('pass');
      expect(judgeConsistency([dead]).find((row) => row.id === 'list-changed-false-honoured')!.detail).toContain(
        'the connection closed during initialize',
      );
    },
  );

  it('fails every row of a target that could not be spoken to, each naming the cause', () => {
    const rows = failedTargetRows({
      code: 'request_timeout',
      message: 'request_timeout: no answer to tools/list within 2000 ms',
    });
    expect(rows.map((row) => row.id)).toEqual(ROW_IDS);
    expect(rows.every((row) => row.verdict === 'fail' && row.detail.includes('no answer to tools/list'))).toBe(true);
  });

  it(
    'judges structuredContent against the outputSchema: invalid ' +
      'and missing fail, no schema is n/a, none called is not_exercised',
    () => {
      const withSchema = {
        ...tool('stats'),
        outputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
      };
      const seen = [observe([listing([withSchema]), listing([withSchema])])];
      const call = (verdict: CallCost['structured']['verdict'], problem?: string): CallCost => ({
        tool: 'stats',
        key: 'stats {}',
        identity: 'default',
        source: 'generated',
        arguments: {},
        status: 'called',
        answered: 'success',
        responseBytes: 10,
        warm: { samples: 1, p50Ms: 1, p95Ms: 1, minMs: 1, maxMs: 1 },
        cold: { samples: 0, p50Ms: 0, p95Ms: 0, minMs: 0, maxMs: 0 },
        structured: problem === undefined ? { verdict } : { verdict, problem },
      });
      const structured = (calls: CallCost[] | undefined) =>
        judgeConsistency(seen, undefined, calls).find((row) => row.id === 'structured-content-valid')!;
      expect(structured([call('valid')]).verdict).toBe('pass');
      expect(structured([call('invalid', 'structuredContent /count must be integer')]).detail).toContain(
        '/count must be integer',
      );
      expect(structured([call('missing', 'no structuredContent')]).verdict).toBe('fail');
      expect(structured([]).verdict).toBe('not_exercised');
      expect(
        judgeConsistency([observe([listing([tool('a')]), listing([tool('a')])])], undefined, []).find(
          (row) => row.id === 'structured-content-valid',
        )!.verdict,
      ).toBe('not_applicable');
    },
  );
});
