/**
 * Whether a commit message says the cost changed on purpose: the label the
 * history replay (scripts/gate/replay-history.ts) sets beside each verdict, so
 * a reader sees at once a flag the author announced and one nobody did.
 *
 * A stated rule, printed in the replay's header, not a judgement: a message
 * "states" a cost change when it uses a word of cost or speed, or gives a
 * figure of time, instructions, allocations or a ratio. It reads the subject
 * and the body alike.
 */

interface IntentCue {
  readonly name: string;
  readonly pattern: RegExp;
}

const CUES: readonly IntentCue[] = [
  {
    name: 'a word of cost or speed',
    pattern: /\b(?:faster|slower|dearer|cheaper|costlier|costs?|costing|speed(?:s|up)?|quicker|overhead)\b/iu,
  },
  { name: 'a time figure (ns, µs, ms)', pattern: /\d(?:[\d.,]*\d)?\s?(?:ns|µs|μs|us|ms)\b/u },
  {
    name: 'an instruction or allocation figure',
    pattern: /\d(?:[\d.,]*\d)?\s?(?:[kKMG]\s?)?(?:instructions?|allocations?)\b/u,
  },
  { name: 'a ratio (×, or a number then x)', pattern: /\d(?:[\d.,]*\d)?\s?(?:×|x\b)|×\s?\d/u },
  { name: 'a percentage change (+/−n%)', pattern: /[+\-−]\s?\d(?:[\d.,]*\d)?\s?%/u },
];

/** The rule as one sentence, for the table's header. */
export const INTENT_RULE =
  `a message states a cost change when it contains ${CUES.map((cue) => cue.name).join(', ')}; ` +
  'words matched case-insensitively as whole words, in the subject or the body';

export interface StatedIntent {
  readonly stated: boolean;
  /** The text each matching cue found, in cue order (at most one per cue). */
  readonly evidence: readonly string[];
}

/** Reads one commit message (subject and body) by INTENT_RULE. */
export function statedIntent(message: string): StatedIntent {
  const evidence: string[] = [];
  for (const cue of CUES) {
    const match = cue.pattern.exec(message);
    if (match !== null) evidence.push(match[0]);
  }
  return { stated: evidence.length > 0, evidence };
}
