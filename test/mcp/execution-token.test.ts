import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ExecutionTokenKey, matchClaims } from '../../src/mcp/execution-token.js';
import type { ExecutionClaims } from '../../src/mcp/execution-token.js';

const key = new ExecutionTokenKey(Buffer.alloc(32, 7));
const claims: ExecutionClaims = {
  executionId: 'exec-1',
  namespaceId: 'acme',
  actor: { kind: 'human', userId: 'ada' },
  catalogHash: 'a'.repeat(64),
  expiresAt: '2026-11-30T10:00:00.000Z',
};
const before = Date.parse('2026-11-30T09:00:00.000Z');

function flip(text: string, at: number): string {
  const c = text[at] === 'A' ? 'B' : 'A';
  return text.slice(0, at) + c + text.slice(at + 1);
}

describe('execution token', () => {
  it('round-trips its claims and has two base64url parts', () => {
    const token = key.mint(claims);
    expect(token.split('.')).toHaveLength(2);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(key.verify(token, before)).toEqual({ ok: true, claims });
  });

  it(
    'judges a token it verified before by its signature and expiry ' +
      'alike: a forged signature and a lapsed token are still refused',
    () => {
      const remembering = new ExecutionTokenKey(Buffer.alloc(32, 9));
      const token = remembering.mint(claims);
      const [body, signature] = token.split('.') as [string, string];
      const first = remembering.verify(token, before);
      expect(first).toEqual({ ok: true, claims });
      const again = remembering.verify(token, before);
      expect(again).toEqual({ ok: true, claims });
      expect(again.ok && first.ok && again.claims).toBe(first.ok ? first.claims : undefined);
      expect(Object.isFrozen(again.ok && again.claims)).toBe(true);
      expect(remembering.verify(`${body}.${flip(signature, 3)}`, before)).toMatchObject({
        ok: false,
        code: 'signature_mismatch',
      });
      expect(remembering.verify(`${body}.${signature.slice(0, 10)}`, before)).toMatchObject({
        ok: false,
        code: 'signature_mismatch',
      });
      expect(remembering.verify(token, Date.parse(claims.expiresAt))).toMatchObject({ ok: false, code: 'expired' });
      expect(new ExecutionTokenKey(Buffer.alloc(32, 8)).verify(token, before)).toMatchObject({
        ok: false,
        code: 'signature_mismatch',
      });
    },
  );

  it('recognizes a remembered token only when spelt exactly as minted; any other spelling is judged whole', () => {
    const remembering = new ExecutionTokenKey(Buffer.alloc(32, 11));
    const token = remembering.mint(claims);
    const [body, signature] = token.split('.') as [string, string];
    expect(remembering.recognize(token, before)).toBeUndefined();
    expect(remembering.verify(token, before)).toEqual({ ok: true, claims });
    expect(remembering.recognize(token, before)).toEqual({ ok: true, claims });
    expect(remembering.recognize(token, Date.parse(claims.expiresAt))).toMatchObject({ ok: false, code: 'expired' });
    // A forged signature, one character beyond Latin-1 that narrows to a signature character, a trailing space: not
    // recognized.
    const wide = String.fromCharCode(0x100 + signature.charCodeAt(0));
    for (const other of [
      `${body}.${flip(signature, 3)}`,
      `${body}.${wide}${signature.slice(1)}`,
      `${token} `,
      `${body}..${signature}`,
    ]) {
      expect(remembering.recognize(other, before), other).toBeUndefined();
      expect(remembering.verify(other, before), other).toMatchObject({ ok: false });
    }
    // The signature's last character carries 2 spare bits: another spelling of the same bytes is recognized by neither
    // path as
    // the minted text, but verify still decodes and accepts it, as it always did.
    const last = signature.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    const respelt = `${body}.${signature.slice(0, -1)}${sibling}`;
    expect(Buffer.from(respelt.split('.')[1]!, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
    expect(remembering.recognize(respelt, before)).toBeUndefined();
    expect(remembering.verify(respelt, before)).toEqual({ ok: true, claims });
  });

  it('encodes canonical claims: key order does not change the token', () => {
    const reordered = {
      expiresAt: claims.expiresAt,
      catalogHash: claims.catalogHash,
      actor: { userId: 'ada', kind: 'human' as const },
      namespaceId: 'acme',
      executionId: 'exec-1',
    };
    expect(key.mint(reordered)).toBe(key.mint(claims));
  });

  it.each([
    ['empty', ''],
    ['one part', 'abc'],
    ['three parts', 'a.b.c'],
    ['not base64url', 'ab$c.def'],
  ])('refuses a %s token as malformed', (_label, token) => {
    expect(key.verify(token, before)).toMatchObject({ ok: false, code: 'malformed' });
  });

  it('refuses correctly signed material that is not claims as malformed', () => {
    const body = Buffer.from('{"not":"claims"}').toString('base64url');
    const signature = createHmac('sha256', Buffer.alloc(32, 7)).update(body).digest('base64url');
    expect(key.verify(`${body}.${signature}`, before)).toMatchObject({ ok: false, code: 'malformed' });
  });

  it('refuses a forged signature, a tampered body and another key as signature_mismatch', () => {
    const token = key.mint(claims);
    const [body, signature] = token.split('.') as [string, string];
    expect(key.verify(`${body}.${flip(signature, 3)}`, before)).toMatchObject({
      ok: false,
      code: 'signature_mismatch',
    });
    expect(key.verify(`${body}.${signature.slice(0, 10)}`, before)).toMatchObject({
      ok: false,
      code: 'signature_mismatch',
    });
    const widened = Buffer.from(JSON.stringify({ ...claims, catalogHash: 'b'.repeat(64) })).toString('base64url');
    expect(key.verify(`${widened}.${signature}`, before)).toMatchObject({ ok: false, code: 'signature_mismatch' });
    expect(new ExecutionTokenKey(Buffer.alloc(32, 8)).verify(token, before)).toMatchObject({
      ok: false,
      code: 'signature_mismatch',
    });
  });

  it('refuses at and after expiresAt as expired', () => {
    const token = key.mint(claims);
    expect(key.verify(token, Date.parse(claims.expiresAt) - 1).ok).toBe(true);
    expect(key.verify(token, Date.parse(claims.expiresAt))).toMatchObject({ ok: false, code: 'expired' });
  });

  it('matches claims against the live turn: another catalogue, execution or actor is claims_mismatch', () => {
    const expected = {
      executionId: 'exec-1',
      namespaceId: 'acme',
      actor: { kind: 'human', userId: 'ada' } as const,
      catalogHash: 'a'.repeat(64),
    };
    expect(matchClaims(claims, expected).ok).toBe(true);
    expect(matchClaims(claims, { ...expected, catalogHash: 'c'.repeat(64) })).toMatchObject({
      ok: false,
      code: 'claims_mismatch',
    });
    expect(matchClaims(claims, { ...expected, executionId: 'exec-2' })).toMatchObject({
      ok: false,
      code: 'claims_mismatch',
    });
    expect(matchClaims(claims, { ...expected, actor: { kind: 'human', userId: 'bob' } })).toMatchObject({
      ok: false,
      code: 'claims_mismatch',
    });
  });

  it('refuses a short key', () => {
    expect(() => new ExecutionTokenKey(Buffer.alloc(16))).toThrow(RangeError);
  });
});
