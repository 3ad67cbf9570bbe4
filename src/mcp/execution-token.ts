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
export const ExecutionClaimsSchema = z.strictObject({
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
/** Longer than any honest token (claims are bounded by their schema): refused before any decoding work. */
const MAX_TOKEN_LENGTH = 4096;
/** An HMAC-SHA256 key shorter than its output would be the weak link. */
const MIN_SECRET_BYTES = 32;
/** Verified token bodies remembered at most; past it the memo starts over (a server has a few live tokens per execution). */
const MAX_VERIFIED = 256;

/** A token body this key has verified: its signature, and the claims it carries. */
interface Verified {
  readonly signature: Buffer;
  readonly claims: ExecutionClaims;
  readonly expiresAtMs: number;
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

  constructor(secret: Uint8Array) {
    if (secret.byteLength < MIN_SECRET_BYTES) throw new RangeError(`an execution token key needs at least ${MIN_SECRET_BYTES} bytes`);
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
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return refuse('malformed', 'the token is empty or too long');
    const parts = token.split('.');
    if (parts.length !== 2 || !BASE64URL.test(parts[0]!) || !BASE64URL.test(parts[1]!)) return refuse('malformed', 'the token is not two base64url parts');
    const [body, signature] = parts as [string, string];
    const presented = Buffer.from(signature, 'base64url');
    const known = this.#verified.get(body);
    const expected = known?.signature ?? this.#sign(body);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return refuse('signature_mismatch', 'the token was not signed by this server');
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
      verified = { signature: expected, claims: Object.freeze(claims), expiresAtMs: Date.parse(claims.expiresAt) };
      if (this.#verified.size >= MAX_VERIFIED) this.#verified.clear();
      this.#verified.set(body, verified);
    }
    if (verified.expiresAtMs <= nowMs) return refuse('expired', `the token expired at ${verified.claims.expiresAt}`);
    return { ok: true, claims: verified.claims };
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
  if (!same) return refuse('claims_mismatch', claims.catalogHash === expected.catalogHash ? 'the token was issued for another execution' : 'the token was issued for another catalogue');
  return { ok: true, claims };
}
