/**
 * The one error a target raises when it cannot be measured or judged. Each
 * way an external server can go wrong has its own code, so a report says
 * "initialize_timeout" rather than a stack trace, and one broken target
 * never takes the rest of a run with it.
 */
export type TargetFailureCode =
  /** The command could not be started (not found, not executable). */
  | 'spawn_failed'
  /** No answer to `initialize` within the timeout. */
  | 'initialize_timeout'
  /** A request other than initialize went unanswered within the timeout. */
  | 'request_timeout'
  /** The process exited, or the connection closed, while the run still needed it. */
  | 'target_exited'
  /** stdout carried something that is not a JSON-RPC message. */
  | 'garbage_on_stdout'
  /** A `tools/list` answer past maxListingBytes. */
  | 'listing_too_large'
  /** Any other frame (a tools/call result, a notification) past maxResultBytes. */
  | 'result_too_large'
  /** More notifications in one second than maxNotificationsPerSecond. */
  | 'notification_flood'
  /** More frames while one request was open than maxFramesPerRequest. */
  | 'too_many_frames'
  /** The HTTP endpoint refused or failed the connection (status, network). */
  | 'http_error'
  /** The server answered with something the protocol does not allow here. */
  | 'protocol_error';

export class TargetFailure extends Error {
  override readonly name = 'TargetFailure';
  constructor(
    readonly code: TargetFailureCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}
