/** The Redactor: what it scrubs, what it leaves, and that it never throws, whatever the secrets look like. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../bench/own-server/secrets.js';

const redactorOf = (...secrets: string[]): Redactor => {
  const redactor = new Redactor();
  for (const secret of secrets) redactor.add(secret);
  return redactor;
};

describe('the Redactor', () => {
  it('redacts a one-character secret and leaves the structure of a value whole', () => {
    const redactor = redactorOf('1');
    expect(redactor.scrub('token 1 in 2021')).toBe(`token ${REDACTED} in 202${REDACTED}`);
    // Numbers, booleans and nulls are not text the target sent: a report's figures stay figures.
    expect(redactor.scrubValue({ samples: 31, ok: true, none: null, echo: 'a1b', list: ['1', 11] })).toEqual({
      samples: 31,
      ok: true,
      none: null,
      echo: `a${REDACTED}b`,
      list: [REDACTED, 11],
    });
  });

  it('redacts a long secret whole, also when it is split across keys and values', () => {
    const long = 'sk-' + 'x9'.repeat(4096);
    const redactor = redactorOf(long);
    expect(redactor.scrub(`Bearer ${long}.`)).toBe(`Bearer ${REDACTED}.`);
    expect(redactor.scrubValue({ [long]: long })).toEqual({ [REDACTED]: REDACTED });
  });

  it('redacts unicode secrets (astral characters, combining marks) as the exact strings they are', () => {
    const redactor = redactorOf('🔑clé\u0301-秘密');
    expect(redactor.scrub('x🔑clé\u0301-秘密y')).toBe(`x${REDACTED}y`);
    // The precomposed é is another string: not the secret, not redacted.
    expect(redactor.scrub('🔑cl\u00e9-秘密')).toBe('🔑cl\u00e9-秘密');
  });

  it('redacts overlapping secrets by the longest, so no tail of the longer one is left', () => {
    const redactor = redactorOf('abc', 'abcdef', 'cdefgh');
    expect(redactor.scrub('abcdef')).toBe(REDACTED);
    expect(redactor.scrub('xxabcdefgh')).toBe(`xx${REDACTED}gh`);
    expect(redactor.scrub('abc abcd')).toBe(`${REDACTED} ${REDACTED}d`);
  });

  it('treats regular-expression characters in a secret as plain text', () => {
    const redactor = redactorOf('a.c', '(?', '$&');
    expect(redactor.scrub('abc a.c (? $&')).toBe(`abc ${REDACTED} ${REDACTED} ${REDACTED}`);
  });

  it('never throws and never leaves a secret in the text, for any secrets and any text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }), { minLength: 1, maxLength: 5 }),
        fc.string({ unit: 'grapheme' }),
        (secrets, filler) => {
          const redactor = redactorOf(...secrets);
          const text = secrets.map((secret) => `${filler}${secret}`).join(filler);
          const scrubbed = redactor.scrub(text);
          const value = redactor.scrubValue({ text, n: 5, nested: [text] });
          // Whatever remains cannot be any secret that does not also occur inside the marker itself.
          for (const secret of secrets)
            if (!REDACTED.includes(secret)) expect(scrubbed.replaceAll(REDACTED, '\u0000')).not.toContain(secret);
          expect(value.n).toBe(5);
        },
      ),
      { numRuns: 200, seed: 36 },
    );
  });

  it('with no secret registered, returns text and values as they are', () => {
    const redactor = new Redactor();
    expect(redactor.scrub('private test')).toBe('private test');
    const value = { a: 'private' };
    expect(redactor.scrubValue(value)).toBe(value);
  });
});
