import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AddressSchema, IdSchema, InstantSchema, addressKey, canonicalJson } from '../kernel/index.js';
import type { Address, ExecutionTokenCode } from '../kernel/index.js';

/**
 * What an execution token asserts: this execution, of this actor in this
 * namespace, was shown the catalogue with this hash, until this instant.
 * Binding catalogHash is the point: a sandbox holding a token from an
 * earlier catalogue cannot reconnect and call tools it was never shown.
 */
const ExecutionClaimsSchema = z.strictObject({
  executionId: IdSchema,
  namespaceId: IdSchema,
  actor: AddressSchema,
  catalogHash: z.string().regex(/^[0-9a-f]{64}$/),
  expiresAt: InstantSchema,
});
export type ExecutionClaims = z.infer<typeof ExecutionClaimsSchema>;

/** What the live turn expects of a token presented for it. */
export interface ExpectedClaims {
  readonly executionId: string;
  readonly namespaceId: string;
  readonly actor: Address;
  readonly catalogHash: string;
}

export type TokenVerdict =
  | { readonly ok: true; readonly claims: ExecutionClaims }
  | { readonly ok: false; readonly code: ExecutionTokenCode; readonly message: string };

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DOT = 0x2e;
/** Longer than any honest token (claims are bounded by their schema): refused before any decoding work. */
const MAX_TOKEN_LENGTH = 4096;
/** An HMAC-SHA256 key shorter than its output would be the weak link. */
const MIN_SECRET_BYTES = 32;
/**
 * Verified token bodies remembered at most; past it the memo starts over (a server has a few live tokens per
 * execution).
 */
const MAX_VERIFIED = 256;

/** A token body this key has verified: its signature, and the claims it carries. */
interface Verified {
  readonly body: string;
  readonly signature: Buffer;
  /** The signature as a minted token spells it (base64url), as bytes: what a presented token is compared with first. */
  readonly signatureText: Buffer;
  readonly claims: ExecutionClaims;
  readonly expiresAtMs: number;
  /** The verdict every request presenting this token gets while it is unexpired: one object, not one per request. */
  readonly accepted: TokenVerdict;
}

function refuse(code: ExecutionTokenCode, message: string): TokenVerdict {
  return { ok: false, code, message };
}

/**
 * Mints and verifies execution tokens: `base64url(canonical claims)` `.`
 * `base64url(HMAC-SHA256(key, first part))`. The signature covers the
 * encoded claims exactly as sent, so verification never re-encodes what
 * it was given. One key per serving process: tokens do not outlive it.
 */
export class ExecutionTokenKey {
  readonly #secret: Buffer;
  /**
   * Bodies whose signature and claims this key has verified. Every request
   * over HTTP carries its execution's token, and verifying it afresh (HMAC,
   * base64 and JSON decoding, the claims' schema with its regexes) was paid
   * per tools/call; a body seen before is judged by comparing the presented
   * signature with the one that verified it, still in constant time, and its
   * expiry against the clock. The body is the claims, not a secret.
   */
  readonly #verified = new Map<string, Verified>();
  /** The token body last recognized: the next request most likely presents the same token. */
  #last: Verified | undefined;

  constructor(secret: Uint8Array) {
    if (secret.byteLength < MIN_SECRET_BYTES)
      throw new RangeError(`an execution token key needs at least ${MIN_SECRET_BYTES} bytes`);
    this.#secret = Buffer.from(secret);
  }

  static generate(): ExecutionTokenKey {
    return new ExecutionTokenKey(randomBytes(MIN_SECRET_BYTES));
  }

  mint(claims: ExecutionClaims): string {
    const checked = ExecutionClaimsSchema.parse(claims);
    const body = Buffer.from(canonicalJson(checked), 'utf8').toString('base64url');
    return `${body}.${this.#sign(body).toString('base64url')}`;
  }

  /**
   * Checks, in order: the token's shape (`malformed`), its signature
   * (`signature_mismatch`, compared in constant time), the claims it carries
   * (`malformed`: a valid signature over bad claims is still unusable) and
   * their expiry against `nowMs` (`expired`). It does not know the live
   * turn; `matchClaims` compares against that.
   */
  verify(token: string, nowMs: number): TokenVerdict {
    return this.recognize(token, nowMs) ?? this.#verifyWhole(token, nowMs);
  }

  /**
   * The verdict on a token this key has verified before, presented spelt
   * exactly as minted; undefined for any other token (`verify` judges it).
   * The body is found by comparing it with the last token accepted (a
   * string compare: the body is the claims, not a secret), else by the memo;
   * the signature's UTF-8 bytes are compared with the minted text's in
   * constant time (equal bytes, equal text), and nothing is decoded. Such a
   * token is two base64url parts with no whitespace, since the minted one is.
   * Per HTTP request this skips a regex, a split, base64 decoding and a hash
   * of the ~320-character body.
   */
  recognize(token: string, nowMs: number): TokenVerdict | undefined {
    if (typeof token !== 'string') return undefined;
    const last = this.#last;
    let known: Verified | undefined;
    let dot: number;
    if (
      last !== undefined &&
      token.length === last.body.length + 1 + last.signatureText.length &&
      token.charCodeAt(last.body.length) === DOT &&
      token.slice(0, last.body.length) === last.body
    ) {
      known = last;
      dot = last.body.length;
    } else {
      if (token.length > MAX_TOKEN_LENGTH) return undefined;
      dot = token.indexOf('.');
      known = dot === -1 ? undefined : this.#verified.get(token.slice(0, dot));
    }
    if (known === undefined) return undefined;
    const presented = Buffer.from(token.slice(dot + 1), 'utf8');
    if (presented.length !== known.signatureText.length || !timingSafeEqual(presented, known.signatureText))
      return undefined;
    this.#last = known;
    return this.#unexpired(known, nowMs);
  }

  #verifyWhole(token: string, nowMs: number): TokenVerdict {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH)
      return refuse('malformed', 'the token is empty or too long');
    const parts = token.split('.');
    if (parts.length !== 2 || !BASE64URL.test(parts[0]!) || !BASE64URL.test(parts[1]!))
      return refuse('malformed', 'the token is not two base64url parts');
    const [body, signature] = parts as [string, string];
    const presented = Buffer.from(signature, 'base64url');
    const known = this.#verified.get(body);
    const expected = known?.signature ?? this.#sign(body);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
      return refuse('signature_mismatch', 'the token was not signed by this server');
    let verified = known;
    if (verified === undefined) {
      let claims: ExecutionClaims;
      try {
        claims = ExecutionClaimsSchema.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
      } catch {
        return refuse('malformed', 'the token carries no valid claims');
      }
      // Shared by every request that presents this token: frozen.
      Object.freeze(claims.actor);
      Object.freeze(claims);
      verified = {
        body,
        signature: expected,
        signatureText: Buffer.from(expected.toString('base64url'), 'utf8'),
        claims,
        expiresAtMs: Date.parse(claims.expiresAt),
        accepted: Object.freeze({ ok: true, claims }),
      };
      if (this.#verified.size >= MAX_VERIFIED) this.#verified.clear();
      this.#verified.set(body, verified);
    }
    return this.#unexpired(verified, nowMs);
  }

  #unexpired(verified: Verified, nowMs: number): TokenVerdict {
    if (verified.expiresAtMs <= nowMs) return refuse('expired', `the token expired at ${verified.claims.expiresAt}`);
    return verified.accepted;
  }

  #sign(body: string): Buffer {
    return createHmac('sha256', this.#secret).update(body, 'utf8').digest();
  }
}

/** Compares verified claims with what the live turn expects; any difference is `claims_mismatch`. */
export function matchClaims(claims: ExecutionClaims, expected: ExpectedClaims): TokenVerdict {
  const same =
    claims.executionId === expected.executionId &&
    claims.namespaceId === expected.namespaceId &&
    addressKey(claims.actor) === addressKey(expected.actor) &&
    claims.catalogHash === expected.catalogHash;
  if (!same)
    return refuse(
      'claims_mismatch',
      claims.catalogHash === expected.catalogHash
        ? 'the token was issued for another execution'
        : 'the token was issued for another catalogue',
    );
  return { ok: true, claims };
}
