import { readFileSync } from 'node:fs';
import { describeThrown, readTrail } from '../../src/kernel/index.js';
import { defineCommand } from '../command.js';

/**
 * Reads an audit trail (a `serve --audit` file, or a captured stderr trail)
 * and reports each call decided with no outcome recorded: what a crash may
 * leave under ADR 0054, never to pass unseen.
 */
export const command = defineCommand<Record<string, never>>({
  define(command) {
    command
      .description(
        'Reads a JSON-lines audit trail and reports its records, any torn line, and each call "decided, outcome ' +
          'not recorded" (an outcome a crash lost after the call was answered).',
      )
      .argument('<trail.jsonl>', "the trail: a serve --audit file, or serve --stdio's stderr captured to a file");
  },
  async run(_flags, { operands }) {
    const file = operands[0]!;
    let trail: string;
    try {
      trail = readFileSync(file, 'utf8');
    } catch (error) {
      process.stderr.write(`costlab audit: cannot read ${file}: ${describeThrown(error)}\n`);
      return 2;
    }
    const reading = readTrail(trail);
    const types = Object.entries(reading.byType)
      .map(([type, count]) => `${type} ${count}`)
      .join(', ');
    process.stdout.write(
      `${file}: ${reading.records} records (${types || 'none'}); ${reading.decisions} ` +
        `decisions; ${reading.tornLines} torn line(s); ${reading.otherLines} other line(s)\n`,
    );
    for (const call of reading.decidedWithoutOutcome) {
      process.stdout.write(
        `decided, outcome not recorded: call ${call.operationId} ${call.tool ?? '?'} ` +
          `(decision ${call.decision}, ` +
          `record ${call.decisionId}${call.at === undefined ? '' : `, at ${call.at}`})\n`,
      );
    }
    process.stdout.write(`${reading.decidedWithoutOutcome.length} call(s) decided with no outcome recorded\n`);
    return 0;
  },
});
