/**
 * Reads a JSON-lines audit trail back (a `--audit` file, or a captured stderr
 * trail with diagnostics among its lines) and names every call whose
 * decision record is in it with no outcome record after: under ADR 0054 an
 * authorized call's outcome may leave after its answer, so a crash can lose
 * it, and the reader says so for each such call ("decided, outcome not
 * recorded") rather than letting the gap pass unseen.
 */

/** A call the trail holds a decision for and no outcome. */
export interface UnrecordedOutcome {
  readonly operationId: string;
  readonly tool: string | undefined;
  /** The decision record's id and outcome (`allowed`: the call may have run; `denied`: it did not). */
  readonly decisionId: string;
  readonly decision: string;
  readonly at: string | undefined;
  readonly turnId: string | undefined;
}

export interface TrailReading {
  /** Whole JSON records read. */
  readonly records: number;
  readonly byType: Readonly<Record<string, number>>;
  /** Lines that begin a record and do not parse: a line cut by a killed writer. */
  readonly tornLines: number;
  /** Non-empty lines that are not records (a stderr trail's diagnostics). */
  readonly otherLines: number;
  /** Decision records (`authorization.checked`) read. */
  readonly decisions: number;
  /** Each call decided with no outcome recorded, in the order of its decision. */
  readonly decidedWithoutOutcome: readonly UnrecordedOutcome[];
}

interface RecordFields {
  readonly id?: unknown;
  readonly type?: unknown;
  readonly outcome?: unknown;
  readonly operationId?: unknown;
  readonly tool?: unknown;
  readonly at?: unknown;
  readonly turnId?: unknown;
}

/** The trail a record came from: the id's prefix before its count (ADR 0035); ids of older trails have none. */
function trailOf(id: string): string {
  const colon = id.lastIndexOf(':');
  return colon === -1 ? '' : id.slice(0, colon);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function readTrail(trail: string): TrailReading {
  const byType: Record<string, number> = {};
  let records = 0;
  let tornLines = 0;
  let otherLines = 0;
  let decisions = 0;
  // Decisions still waiting for their outcome, per trail and call id: a queue, since a host may reuse a call id.
  const open = new Map<string, UnrecordedOutcome[]>();
  const order: UnrecordedOutcome[] = [];
  const answeredDecisions = new Set<UnrecordedOutcome>();
  for (const line of trail.split('\n')) {
    if (line.trim().length === 0) continue;
    if (!line.startsWith('{')) {
      otherLines++;
      continue;
    }
    let record: RecordFields;
    try {
      record = JSON.parse(line) as RecordFields;
    } catch {
      tornLines++;
      continue;
    }
    records++;
    const type = text(record.type) ?? '?';
    byType[type] = (byType[type] ?? 0) + 1;
    const operationId = text(record.operationId);
    if (operationId === undefined) continue;
    const key = `${trailOf(text(record.id) ?? '')}\u0000${operationId}`;
    if (type === 'authorization.checked') {
      decisions++;
      const decided: UnrecordedOutcome = {
        operationId,
        tool: text(record.tool),
        decisionId: text(record.id) ?? '',
        decision: text(record.outcome) ?? '?',
        at: text(record.at),
        turnId: text(record.turnId),
      };
      const waiting = open.get(key);
      if (waiting === undefined) open.set(key, [decided]);
      else waiting.push(decided);
      order.push(decided);
    } else if (type === 'tool.invoked') {
      const waiting = open.get(key);
      const answered = waiting?.shift();
      if (answered !== undefined) answeredDecisions.add(answered);
    }
  }
  return {
    records,
    byType,
    tornLines,
    otherLines,
    decisions,
    decidedWithoutOutcome: order.filter((decided) => !answeredDecisions.has(decided)),
  };
}
