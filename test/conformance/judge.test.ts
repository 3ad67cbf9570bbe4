import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/conformance/columns/column.js';
import { judgeCell, meets } from '../../src/conformance/judge.js';
import type { PlayedAttempt } from '../../src/conformance/judge.js';
import { refused, succeeds } from '../../src/conformance/move.js';
import type { CallStep, CatalogueStep, Role } from '../../src/conformance/move.js';

const step = (role: Role, expect = succeeds): CallStep => ({
  do: 'call',
  role,
  label: `${role} step`,
  tool: 'files.read',
  arguments: { path: [] },
  expect,
});
const ok: Observation = { outcome: 'succeeded' };
const refusal = (code: string, cause?: string): Observation => ({
  outcome: 'refused',
  status: 'denied',
  code,
  ...(cause === undefined ? {} : { cause }),
});

describe('meets', () => {
  it('matches a refusal on its code, whatever its status', () => {
    expect(meets(refused('no_matching_grant'), refusal('no_matching_grant'))).toBe(true);
    expect(
      meets(refused('invalid_tool_result'), { outcome: 'refused', status: 'failed', code: 'invalid_tool_result' }),
    ).toBe(true);
    expect(meets(refused('no_matching_grant'), refusal('grant_exhausted'))).toBe(false);
  });

  it('accepts the expected code as the cause of a tool_unavailable refusal, and only of that one', () => {
    expect(meets(refused('no_matching_grant'), refusal('tool_unavailable', 'no_matching_grant'))).toBe(true);
    expect(meets(refused('no_matching_grant'), refusal('tool_unavailable', 'not_in_listed_catalogue'))).toBe(false);
    expect(meets(refused('no_matching_grant'), refusal('tool_unavailable'))).toBe(false);
    expect(meets(refused('no_matching_grant'), refusal('invalid_request', 'no_matching_grant'))).toBe(false);
  });

  it('never takes a success for a refusal, a refusal for a success, or a broken path for either', () => {
    expect(meets(refused('no_matching_grant'), ok)).toBe(false);
    expect(meets(succeeds, refusal('no_matching_grant'))).toBe(false);
    expect(meets(succeeds, { outcome: 'error', detail: 'socket hang up' })).toBe(false);
    expect(meets(refused('tool_unavailable'), { outcome: 'error', code: 'tool_unavailable' })).toBe(false);
  });
});

describe('judgeCell', () => {
  const played = (...pairs: [CallStep | CatalogueStep, PlayedAttempt['seen']][]): PlayedAttempt[] =>
    pairs.map(([attempt, seen]) => ({ attempt, seen }));

  it('passes when controls succeed and attacks are refused as expected', () => {
    const cell = judgeCell(
      'r',
      'c',
      played([step('control'), ok], [step('attack', refused('no_matching_grant')), refusal('no_matching_grant')]),
    );
    expect(cell.status).toBe('pass');
    expect(cell.attempts.every((a) => a.met)).toBe(true);
  });

  it('fails when an attack is let through', () => {
    const cell = judgeCell('r', 'c', played([step('control'), ok], [step('attack', refused('no_matching_grant')), ok]));
    expect(cell.status).toBe('fail');
    expect(cell.attempts[1]).toMatchObject({
      met: false,
      expected: 'refused no_matching_grant',
      observed: 'succeeded',
    });
  });

  it('fails when a probe does not get its answer', () => {
    expect(
      judgeCell(
        'r',
        'c',
        played([step('control'), ok], [step('probe'), refusal('tool_unavailable', 'no_matching_grant')]),
      ).status,
    ).toBe('fail');
  });

  it('calls a cell not_exercised when a control failed, even if its attacks were refused', () => {
    const cell = judgeCell(
      'r',
      'c',
      played(
        [step('control'), refusal('authority_unavailable')],
        [step('attack', refused('no_matching_grant')), refusal('no_matching_grant')],
      ),
    );
    expect(cell.status).toBe('not_exercised');
  });

  it('does not count an attempt the move never reached as met', () => {
    const cell = judgeCell(
      'r',
      'c',
      played([step('control'), ok], [step('attack', refused('no_matching_grant')), undefined]),
      'the move broke off',
    );
    expect(cell).toMatchObject({ status: 'fail', note: 'the move broke off' });
    expect(cell.attempts[1]).toMatchObject({ observed: 'not observed', met: false });
    expect(judgeCell('r', 'c', played([step('control'), undefined])).status).toBe('not_exercised');
  });

  it('judges a catalogue step on what was shown and what was withheld', () => {
    const shown: CatalogueStep = {
      do: 'catalogue',
      role: 'probe',
      label: 'listing',
      expect: { shows: ['files.read'], hides: ['admin.purge'] },
    };
    expect(judgeCell('r', 'c', played([shown, { tools: ['files.read'] }])).status).toBe('pass');
    expect(judgeCell('r', 'c', played([shown, { tools: ['files.read', 'admin.purge'] }])).status).toBe('fail');
    expect(judgeCell('r', 'c', played([shown, { tools: [] }])).status).toBe('fail');
  });
});
