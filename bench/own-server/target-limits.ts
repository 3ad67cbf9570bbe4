/**
 * What a target may send before costlab stops reading it: bytes in one
 * listing, bytes in one answer, notifications a second and notifications
 * kept, frames while one request is open. Each limit has a config field and a
 * flag of the same name; each refusal is a TargetFailure that names the
 * limit, the target and what it sent. The byte limits are applied to frames
 * still arriving (docs/adr/0043-target-bounds-at-the-frame.md): a limit judged
 * only on a finished frame is judged after the frame was held whole.
 */
import { TargetFailure } from './target-failure.js';
import type { TargetFailureCode } from './target-failure.js';

export interface TargetLimits {
  /** One `tools/list` answer (all pages together), in bytes. */
  readonly maxListingBytes: number;
  /** Any other frame from the target (a tools/call result, a notification), in bytes. */
  readonly maxResultBytes: number;
  /** Notifications within any one second. */
  readonly maxNotificationsPerSecond: number;
  /** Notifications kept in the frame log (for evidence); later ones are counted, not kept. */
  readonly maxRetainedNotifications: number;
  /** Frames received while one request is open, its answer included. */
  readonly maxFramesPerRequest: number;
}

export type TargetLimitName = keyof TargetLimits;

/** The command-line flag of each limit. */
export const LIMIT_FLAGS: Readonly<Record<TargetLimitName, string>> = {
  maxListingBytes: '--max-listing-bytes',
  maxResultBytes: '--max-result-bytes',
  maxNotificationsPerSecond: '--max-notifications-per-second',
  maxRetainedNotifications: '--max-retained-notifications',
  maxFramesPerRequest: '--max-frames-per-request',
};

/** `maxListingBytes = 4194304 (--max-listing-bytes)`: how a refusal names its limit. */
export function limitLabel(limits: TargetLimits, name: TargetLimitName): string {
  return `${name} = ${limits[name]} (${LIMIT_FLAGS[name]})`;
}

export interface FrameBound {
  readonly bytes: number;
  readonly limit: 'maxListingBytes' | 'maxResultBytes';
  readonly code: Extract<TargetFailureCode, 'listing_too_large' | 'result_too_large'>;
}

/** The byte bound on a frame that may answer `method` (the request open when it arrives). */
export function frameBound(limits: TargetLimits, method: string | undefined): FrameBound {
  return method === 'tools/list'
    ? { bytes: limits.maxListingBytes, limit: 'maxListingBytes', code: 'listing_too_large' }
    : { bytes: limits.maxResultBytes, limit: 'maxResultBytes', code: 'result_too_large' };
}

/** The most bytes any one frame may have: the size a reader may buffer before it must have refused. */
export function largestFrame(limits: TargetLimits): number {
  return Math.max(limits.maxListingBytes, limits.maxResultBytes);
}

/** The refusal of a frame past its byte bound; `arriving` when it was refused before its end came. */
export function frameTooLarge(
  target: string,
  limits: TargetLimits,
  method: string | undefined,
  bytes: number,
  arriving: boolean,
): TargetFailure {
  const bound = frameBound(limits, method);
  const what = method === undefined ? 'a frame' : `a frame while ${method} was open`;
  return new TargetFailure(
    bound.code,
    `target ${target} sent ${what} of ${arriving ? 'more than ' : ''}${bytes} ` +
      `bytes${arriving ? ' (refused as it arrived)' : ''}, past ${limitLabel(limits, bound.limit)}`,
  );
}
