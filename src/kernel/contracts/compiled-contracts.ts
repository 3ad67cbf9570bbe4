/**
 * The three contracts a mediated call checks on every call — the call, the
 * tool's requirement, the handler's result — and the grants a lease open
 * validates, checked by hand for the shapes
 * they nearly always have, with zod as the judge of everything else.
 *
 * zod's generic parse of these (a discriminated union, z.json() recursing
 * through a lazy union per value) was 2.5–4 µs of a ~20 µs call each in the
 * bench's step split (`costlab bench`, at 9ae61bb). The checks here accept only what the zod schema accepts, and
 * return the same copy zod would; any input they are not certain of — a
 * symbol or `__proto__` key, a hole, an optional field, a non-plain object,
 * anything that fails — goes to zod, which accepts or refuses it and names
 * the fields exactly as before. So the contract is zod's, and a refusal's
 * wording never changes; the property test holds the two to agreement.
 */
import type { Address } from './address.js';
import type { z } from 'zod';
import { AccessContextSchema } from './access-context.js';
import type { AccessContext } from './access-context.js';
import { GrantSchema } from './grant.js';
import type { Grant } from './grant.js';
import { ARGUMENT_LIMITS, nestsDeeperThan } from './argument-limits.js';
import { RequirementSchema } from './resource.js';
import type { Requirement } from './resource.js';
import { ToolCallSchema, ToolResultSchema } from './tool.js';
import type { ToolCall, ToolResult } from './tool.js';

/** A value the fast path is not sure of: zod decides. */
const UNSURE: unique symbol = Symbol('unsure');
type Unsure = typeof UNSURE;

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The last tool name found valid: a call and its result name the same tool, and a turn calls a few tools over and
 * over, so the regex (a call into its compiled code per check, two a call) runs for a name not just seen.
 */
let lastToolName: string | undefined;

function isToolName(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (value === lastToolName) return true;
  if (!TOOL_NAME.test(value)) return false;
  lastToolName = value;
  return true;
}

/**
 * The last instant string found valid. A turn's calls and results carry the
 * same `requestedAt`/`completedAt` over and over; a string equal to the last
 * one needs no check. None until one is found: an empty string here let `''`
 * through as a valid instant until the process had checked a real one.
 */
let lastInstant: string | undefined;

function isInstant(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (value === lastInstant) return true;
  if (!matchesInstant(value)) return false;
  lastInstant = value;
  return true;
}

/** The digit at `i`, or -1. */
function digitAt(s: string, i: number): number {
  const code = s.charCodeAt(i) - 48;
  return code >= 0 && code <= 9 ? code : -1;
}

/** Two digits at `i` as a number, or -1. */
function twoDigitsAt(s: string, i: number): number {
  const tens = digitAt(s, i);
  const ones = digitAt(s, i + 1);
  return tens < 0 || ones < 0 ? -1 : tens * 10 + ones;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * InstantSchema's pattern (zod's `iso.datetime({offset: true})`), decided by
 * reading characters rather than by the regex: `YYYY-MM-DD` with the days of
 * each month and February 29th in leap years (the regex's five year shapes
 * are the Gregorian rule over 0000–9999), `THH:MM:SS`, an optional fraction
 * of one or more digits, then `Z` or `±HH:MM`. Every new turn's context is
 * checked once, and the regex was a real share of a lease open (after a turn
 * of calls, when its compiled code is out of cache).
 * A test holds the two to the same verdict over generated near-instants.
 */
export function matchesInstant(s: string): boolean {
  const n = s.length;
  if (
    n < 20 ||
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58
  )
    return false;
  const century = twoDigitsAt(s, 0);
  const yearOfCentury = twoDigitsAt(s, 2);
  const month = twoDigitsAt(s, 5);
  const day = twoDigitsAt(s, 8);
  if (century < 0 || yearOfCentury < 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = yearOfCentury === 0 ? century % 4 === 0 : yearOfCentury % 4 === 0;
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return false;
  const hour = twoDigitsAt(s, 11);
  const minute = twoDigitsAt(s, 14);
  const second = twoDigitsAt(s, 17);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let i = 19;
  if (s.charCodeAt(i) === 46) {
    i++;
    const fractionStart = i;
    while (i < n && digitAt(s, i) >= 0) i++;
    if (i === fractionStart) return false;
  }
  const zone = s.charCodeAt(i);
  if (zone === 90) return i + 1 === n;
  if (zone !== 43 && zone !== 45) return false;
  if (i + 6 !== n || s.charCodeAt(i + 3) !== 58) return false;
  const offsetHour = twoDigitsAt(s, i + 1);
  const offsetMinute = twoDigitsAt(s, i + 4);
  return offsetHour >= 0 && offsetHour <= 23 && offsetMinute >= 0 && offsetMinute <= 59;
}

const isId = (value: unknown): value is string => typeof value === 'string' && value.length >= 1 && value.length <= 256;

/**
 * A contract's keys: in the order the kernel's own objects carry them (the schema's), and as a set for any other
 * order. String sets of one contract, never edited.
 */
class KeySet {
  readonly order: readonly string[];
  readonly set: ReadonlySet<string>;
  constructor(keys: readonly string[]) {
    this.order = keys;
    this.set = new Set(keys);
  }
}

/**
 * Whether a plain object's enumerable string keys are exactly `expected`
 * (in any order). Read with `for…in`, as zod's strict objects read them:
 * symbols are invisible to both; a key zod would call unrecognized (an
 * inherited enumerable one, `__proto__`) is not expected, so the input goes
 * to zod; a non-enumerable own key the shape names leaves the count short,
 * so it goes to zod too. `Reflect.ownKeys` allocated an array per check and
 * made this the costliest hand check of a call (about four per call), where
 * `for…in` over a call's five keys allocates nothing. A key where the
 * schema's order puts it is known without hashing it; a key out of that
 * order still counts when the set has it. With the tool-name memo and the
 * unfrozen requirement, the gate's call lane read 154,821 → 152,473
 * instructions (`costlab gate --lanes instructions`, 7b18636 against ecc0853).
 */
function hasExactly(input: unknown, expected: KeySet): input is Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Object.getPrototypeOf(input) !== Object.prototype) return false;
  const { order } = expected;
  let count = 0;
  for (const key in input) {
    if (key !== order[count] && !expected.set.has(key)) return false;
    count++;
  }
  return count === order.length;
}

/**
 * A copy of a JSON value as z.json() would return it, or UNSURE. Objects and
 * arrays deeper than `depthLeft` are UNSURE too: the copy recurses, and a
 * value past the argument depth bound is for the slow path to refuse.
 */
function copyJson(value: unknown, depthLeft: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : UNSURE;
    case 'object': {
      if (value === null) return null;
      if (depthLeft === 0) return UNSURE;
      const proto = Object.getPrototypeOf(value);
      if (proto === Array.prototype) {
        const array = value as unknown[];
        const out = new Array<unknown>(array.length);
        for (let i = 0; i < array.length; i++) {
          const item = array[i];
          if (item === undefined) return UNSURE;
          const copied = copyJson(item, depthLeft - 1);
          if (copied === UNSURE) return UNSURE;
          out[i] = copied;
        }
        return out;
      }
      return proto === Object.prototype ? copyJsonObject(value as Record<string, unknown>, depthLeft - 1) : UNSURE;
    }
    default:
      return UNSURE;
  }
}

/**
 * The keys are zod's record keys: own, enumerable, strings (Object.keys); an
 * object with any symbol key goes to zod, which refuses an enumerable one.
 * `Reflect.ownKeys` (dearer than Object.keys and the symbol check together,
 * since it allocates an array of every own key) ran for the
 * arguments of every call and the output of every result; it also copied
 * non-enumerable keys, which zod leaves out.
 */
function copyJsonObject(value: Record<string, unknown>, depthLeft: number): Record<string, unknown> | Unsure {
  if (Object.getOwnPropertySymbols(value).length !== 0) return UNSURE;
  const keys = Object.keys(value);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === '__proto__') return UNSURE;
    const copied = copyJson(value[key], depthLeft);
    if (copied === UNSURE) return UNSURE;
    out[key] = copied;
  }
  return out;
}

function jsonObject(value: unknown): Record<string, unknown> | Unsure {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return UNSURE;
  // The object itself is depth 1.
  return copyJsonObject(value as Record<string, unknown>, ARGUMENT_LIMITS.maxDepth - 1);
}

/**
 * Runs a fast check on `input`; a stack overflow in it (arguments nested past
 * the stack) is zod's to meet and report. The check and its input are passed
 * apart, so a call's four contract checks allocate no closure each.
 */
function attempt<T>(check: (input: unknown) => T | Unsure, input: unknown): T | Unsure {
  try {
    return check(input);
  } catch {
    return UNSURE;
  }
}

const CALL_KEYS = new KeySet(['id', 'tool', 'arguments', 'traceId', 'requestedAt']);

function fastToolCall(input: unknown): ToolCall | Unsure {
  if (!hasExactly(input, CALL_KEYS)) return UNSURE;
  const { id, tool, traceId, requestedAt } = input;
  if (!isId(id) || !isToolName(tool) || !isId(traceId) || !isInstant(requestedAt)) return UNSURE;
  const args = jsonObject(input.arguments);
  if (args === UNSURE) return UNSURE;
  return { id, tool, arguments: args as ToolCall['arguments'], traceId, requestedAt };
}

/** A call whose arguments nest past ARGUMENT_LIMITS.maxDepth: refused before anything recursive walks them. */
export interface ArgumentsTooDeep {
  readonly success: false;
  readonly tooDeep: true;
}
const TOO_DEEP: ArgumentsTooDeep = Object.freeze({ success: false, tooDeep: true });

/**
 * ToolCallSchema.safeParse, with its common case checked by hand, and the
 * argument depth bound before zod: the hand check copies at most that deep,
 * so whatever it passes is within the bound, and anything else is measured
 * iteratively before zod's recursive z.json() sees it.
 */
export function safeParseToolCall(input: unknown): z.ZodSafeParseResult<ToolCall> | ArgumentsTooDeep {
  const fast = attempt(fastToolCall, input);
  if (fast !== UNSURE) return { success: true, data: fast };
  if (
    typeof input === 'object' &&
    input !== null &&
    nestsDeeperThan((input as { arguments?: unknown }).arguments, ARGUMENT_LIMITS.maxDepth)
  )
    return TOO_DEEP;
  return ToolCallSchema.safeParse(input);
}

const SUCCEEDED_KEYS = new KeySet(['status', 'output', 'callId', 'tool', 'completedAt']);
const REFUSED_KEYS = new KeySet(['status', 'code', 'message', 'callId', 'tool', 'completedAt']);

function fastToolResult(input: unknown): ToolResult | Unsure {
  if (typeof input !== 'object' || input === null) return UNSURE;
  const status = (input as { status?: unknown }).status;
  if (status === 'succeeded') {
    if (!hasExactly(input, SUCCEEDED_KEYS)) return UNSURE;
    const { callId, tool, completedAt } = input;
    if (!isId(callId) || !isToolName(tool) || !isInstant(completedAt)) return UNSURE;
    if (input.output === undefined) return UNSURE;
    const output = copyJson(input.output, ARGUMENT_LIMITS.maxDepth);
    if (output === UNSURE) return UNSURE;
    return { status, output: output as never, callId, tool, completedAt };
  }
  if (status === 'denied' || status === 'failed') {
    if (!hasExactly(input, REFUSED_KEYS)) return UNSURE;
    const { code, message, callId, tool, completedAt } = input;
    if (
      typeof code !== 'string' ||
      code.length < 1 ||
      code.length > 128 ||
      typeof message !== 'string' ||
      message.length > 4096
    )
      return UNSURE;
    if (!isId(callId) || !isToolName(tool) || !isInstant(completedAt)) return UNSURE;
    return { status, code, message, callId, tool, completedAt };
  }
  return UNSURE;
}

/** ToolResultSchema.safeParse, with its common case checked by hand. */
export function safeParseToolResult(input: unknown): z.ZodSafeParseResult<ToolResult> {
  const fast = attempt(fastToolResult, input);
  return fast === UNSURE ? ToolResultSchema.safeParse(input) : { success: true, data: fast };
}

const REQUIREMENT_KEYS = new KeySet(['resource', 'action']);
const RESOURCE_KEYS = new KeySet(['namespace', 'path']);
const RESOURCE_WITH_OWNER_KEYS = new KeySet(['namespace', 'path', 'owner']);
/**
 * Whether a path segment holds `/`, `\\`, a control character or DEL (RequirementSchema's forbidden set), read by
 * character code: a regex run per segment of every call.
 */
function hasForbiddenCharacter(segment: string): boolean {
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    if (code <= 0x1f || code === 0x7f || code === 0x2f || code === 0x5c) return true;
  }
  return false;
}

/** A path segment as PathSegmentSchema has it: 1–256 characters, not a dot segment, none forbidden. */
function isSegment(s: string): boolean {
  return s.length >= 1 && s.length <= 256 && s !== '.' && s !== '..' && !hasForbiddenCharacter(s);
}

function fastRequirement(input: unknown): Requirement | Unsure {
  if (!hasExactly(input, REQUIREMENT_KEYS)) return UNSURE;
  const { resource, action } = input;
  if (typeof action !== 'string' || action.length > 128) return UNSURE;
  // A resource naming its owner is checked here too, its owner as a context's principals are (fastAddress): sent to
  // zod, it was one call of the reference workload's 27 that ran zod's parse each turn.
  let owner: Address | Unsure | undefined;
  if (!hasExactly(resource, RESOURCE_KEYS)) {
    if (!hasExactly(resource, RESOURCE_WITH_OWNER_KEYS)) return UNSURE;
    owner = fastAddress(resource.owner);
    if (owner === UNSURE) return UNSURE;
  }
  const { namespace, path } = resource;
  if (typeof namespace !== 'string' || namespace.length > 256) return UNSURE;
  if (typeof path !== 'object' || path === null || Object.getPrototypeOf(path) !== Array.prototype) return UNSURE;
  const segments = path as unknown[];
  if (segments.length > 64) return UNSURE;
  const copy = new Array<string>(segments.length);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (typeof s !== 'string' || !isSegment(s)) return UNSURE;
    copy[i] = s;
  }
  // The resource frozen as it is made: the decision and outcome records share it and would otherwise walk it to freeze
  // it. The requirement around it is the kernel's own copy, read by the grant walk and never handed out, so it is not
  // frozen: each Object.freeze is a call into the runtime.
  return {
    resource: Object.freeze(
      owner === undefined
        ? { namespace, path: Object.freeze(copy) as string[] }
        : { namespace, path: Object.freeze(copy) as string[], owner: Object.freeze(owner) },
    ),
    action,
  } as Requirement;
}

/** RequirementSchema.parse, with its common cases checked by hand; throws zod's error otherwise. */
export function parseRequirement(input: unknown): Requirement {
  const fast = attempt(fastRequirement, input);
  return fast === UNSURE ? RequirementSchema.parse(input) : fast;
}

const ADDRESS_ID_KEY = { human: 'userId', agent: 'agentId', group: 'groupId', service: 'serviceId' } as const;

/**
 * An address with exactly its kind's two keys, copied; anything else (an
 * unknown kind, an extra key) is zod's. The keys are counted with `for…in`,
 * as `hasExactly` counts them and zod's strict objects read them (symbols and
 * non-enumerable keys are invisible to all three), and the copy is a literal
 * per kind: `Reflect.ownKeys` made an array per address and a computed key a
 * literal V8 cannot preshape, three of each per new context. Two string
 * comparisons per key, not `hasExactly` with a set per kind: that cost the
 * gate's turn-boundary lane +2.8% (127,915 → 131,463 instructions; `costlab gate`, at 875a2ef).
 */
function fastAddress(input: unknown): Address | Unsure {
  if (typeof input !== 'object' || input === null || Object.getPrototypeOf(input) !== Object.prototype) return UNSURE;
  const kind = (input as { kind?: unknown }).kind;
  if (kind !== 'human' && kind !== 'agent' && kind !== 'group' && kind !== 'service') return UNSURE;
  const idKey = ADDRESS_ID_KEY[kind];
  let count = 0;
  for (const key in input) {
    if (key !== 'kind' && key !== idKey) return UNSURE;
    count++;
  }
  if (count !== 2) return UNSURE;
  const id = (input as Record<string, unknown>)[idKey];
  if (!isId(id)) return UNSURE;
  switch (kind) {
    case 'human':
      return { kind, userId: id };
    case 'agent':
      return { kind, agentId: id };
    case 'group':
      return { kind, groupId: id };
    case 'service':
      return { kind, serviceId: id };
  }
}

/** A plain array of at most `max` strings, each passing `ok`, copied; holes and anything else are zod's. */
function stringArray(input: unknown, min: number, max: number, ok: (s: string) => boolean): string[] | Unsure {
  if (typeof input !== 'object' || input === null || Object.getPrototypeOf(input) !== Array.prototype) return UNSURE;
  const items = input as unknown[];
  if (items.length < min || items.length > max) return UNSURE;
  const copy = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'string' || !ok(item)) return UNSURE;
    copy[i] = item;
  }
  return copy;
}

const isAction = (s: string): boolean => s.length >= 1 && s.length <= 128;
const isPurpose = (s: string): boolean => s.length >= 1 && s.length <= 512;

const CAPABILITY_KEYS = new KeySet(['resource', 'actions', 'scope']);

function fastCapability(input: unknown): Grant['capabilities'][number] | Unsure {
  if (!hasExactly(input, CAPABILITY_KEYS)) return UNSURE;
  const { resource, scope } = input;
  // A resource naming an owner goes to zod, as in a requirement.
  if (!hasExactly(resource, RESOURCE_KEYS) || (scope !== 'exact' && scope !== 'descendants')) return UNSURE;
  if (!isId(resource.namespace)) return UNSURE;
  const path = stringArray(resource.path, 0, 64, isSegment);
  if (path === UNSURE) return UNSURE;
  const actions = stringArray(input.actions, 1, 64, isAction);
  if (actions === UNSURE) return UNSURE;
  return { resource: { namespace: resource.namespace, path }, actions, scope };
}

const CONSTRAINT_KEYS = new Set(['purposes', 'notBefore', 'expiresAt', 'maxUses']);

function fastConstraints(input: unknown): Grant['constraints'] | Unsure {
  if (typeof input !== 'object' || input === null || Object.getPrototypeOf(input) !== Object.prototype) return UNSURE;
  const out: Grant['constraints'] = {};
  for (const key of Reflect.ownKeys(input)) {
    if (typeof key !== 'string' || !CONSTRAINT_KEYS.has(key)) return UNSURE;
    const value = (input as Record<string, unknown>)[key];
    switch (key) {
      case 'purposes': {
        const purposes = stringArray(value, 0, 64, isPurpose);
        if (purposes === UNSURE) return UNSURE;
        out.purposes = purposes;
        break;
      }
      case 'notBefore':
      case 'expiresAt':
        if (!isInstant(value)) return UNSURE;
        out[key] = value;
        break;
      default:
        if (!Number.isSafeInteger(value) || (value as number) <= 0) return UNSURE;
        out.maxUses = value as number;
    }
  }
  return out;
}

const GRANT_KEYS = new KeySet(['id', 'namespaceId', 'subject', 'issuer', 'capabilities', 'constraints', 'issuedAt']);
const REVOKED_GRANT_KEYS = new KeySet([...GRANT_KEYS.order, 'revokedAt']);

function fastGrant(input: unknown): Grant | Unsure {
  if (typeof input !== 'object' || input === null) return UNSURE;
  const revoked = Object.hasOwn(input, 'revokedAt');
  if (!hasExactly(input, revoked ? REVOKED_GRANT_KEYS : GRANT_KEYS)) return UNSURE;
  const { id, namespaceId, issuedAt, revokedAt } = input;
  if (!isId(id) || !isId(namespaceId) || !isInstant(issuedAt) || (revoked && !isInstant(revokedAt))) return UNSURE;
  const subject = fastAddress(input.subject);
  const issuer = fastAddress(input.issuer);
  if (subject === UNSURE || issuer === UNSURE) return UNSURE;
  const held = input.capabilities;
  if (typeof held !== 'object' || held === null || Object.getPrototypeOf(held) !== Array.prototype) return UNSURE;
  const list = held as unknown[];
  if (list.length < 1 || list.length > 64) return UNSURE;
  const capabilities = new Array<Grant['capabilities'][number]>(list.length);
  for (let i = 0; i < list.length; i++) {
    const capability = fastCapability(list[i]);
    if (capability === UNSURE) return UNSURE;
    capabilities[i] = capability;
  }
  const constraints = fastConstraints(input.constraints);
  if (constraints === UNSURE) return UNSURE;
  return {
    id,
    namespaceId,
    subject: subject as Grant['subject'],
    issuer: issuer as Grant['issuer'],
    capabilities,
    constraints,
    issuedAt,
    ...(revoked ? { revokedAt: revokedAt as string } : {}),
  };
}

/**
 * GrantSchema.safeParse, with its common case checked by hand: a lease open
 * validates every grant of the turn, and zod's generic parse of the
 * reference world's six was most of an open in a CPU profile.
 */
export function safeParseGrant(input: unknown): z.ZodSafeParseResult<Grant> {
  const fast = attempt(fastGrant, input);
  return fast === UNSURE ? GrantSchema.safeParse(input) : { success: true, data: fast };
}

/** A context's keys in the schema's order; a turn's context carries `turnId` after `traceId`. */
const CONTEXT_KEYS = new KeySet([
  'namespaceId',
  'actor',
  'authority',
  'owner',
  'purpose',
  'traceId',
  'enabledToolNamespaces',
  'now',
]);
const TURN_CONTEXT_KEYS = new KeySet(
  CONTEXT_KEYS.order.flatMap((key) => (key === 'traceId' ? [key, 'turnId'] : [key])),
);

function fastAccessContext(input: unknown): AccessContext | Unsure {
  if (typeof input !== 'object' || input === null) return UNSURE;
  const hasTurn = Object.hasOwn(input, 'turnId');
  if (!hasExactly(input, hasTurn ? TURN_CONTEXT_KEYS : CONTEXT_KEYS)) return UNSURE;
  const { namespaceId, purpose, traceId, turnId, now } = input;
  if (
    !isId(namespaceId) ||
    typeof purpose !== 'string' ||
    !isPurpose(purpose) ||
    !isId(traceId) ||
    (hasTurn && !isId(turnId)) ||
    !isInstant(now)
  )
    return UNSURE;
  const actor = fastAddress(input.actor);
  const authority = fastAddress(input.authority);
  const owner = fastAddress(input.owner);
  if (actor === UNSURE || authority === UNSURE || owner === UNSURE) return UNSURE;
  const enabled = stringArray(input.enabledToolNamespaces, 0, 256, isId);
  // Duplicates are zod's to refuse, with its message.
  if (enabled === UNSURE || hasDuplicate(enabled)) return UNSURE;
  // zod's key order: the schema's. Two literals, not one with a conditional spread for turnId: the spread made a
  // throwaway object and copied it in, at every new turn's context. One literal with turnId, the namespaces and now
  // added after it cost more again: costlab gate's turn boundary lane read 122,541 → 124,400 instructions.
  return hasTurn
    ? {
        namespaceId,
        actor: actor as AccessContext['actor'],
        authority: authority as AccessContext['authority'],
        owner: owner as AccessContext['owner'],
        purpose,
        traceId,
        turnId: turnId as string,
        enabledToolNamespaces: enabled,
        now,
      }
    : {
        namespaceId,
        actor: actor as AccessContext['actor'],
        authority: authority as AccessContext['authority'],
        owner: owner as AccessContext['owner'],
        purpose,
        traceId,
        enabledToolNamespaces: enabled,
        now,
      };
}

/**
 * Whether a list of strings holds one twice. A short list (a context's enabled namespaces are a handful) is compared
 * pairwise, which allocates nothing; a long one goes through a Set.
 */
function hasDuplicate(items: readonly string[]): boolean {
  if (items.length > 16) return new Set(items).size !== items.length;
  for (let i = 1; i < items.length; i++) for (let j = 0; j < i; j++) if (items[i] === items[j]) return true;
  return false;
}

/**
 * AccessContextSchema.safeParse, with its common case checked by hand: a
 * context the host has not passed before (a new turn's) is validated once,
 * at the turn's first operation, and zod's parse of it was a real share of
 * a lease open in the reference world.
 */
export function safeParseAccessContext(input: unknown): z.ZodSafeParseResult<AccessContext> {
  const fast = attempt(fastAccessContext, input);
  return fast === UNSURE ? AccessContextSchema.safeParse(input) : { success: true, data: fast };
}
