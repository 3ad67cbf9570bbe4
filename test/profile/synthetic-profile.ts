/**
 * A small `.cpuprofile` built by hand: a call tree and a sample list whose
 * self times are known in advance, so the computation can be checked
 * exactly. Each node is named by a short key; `sample(key, µs)` appends a
 * sample of that node lasting µs (the interval to the next sample).
 */
import type { CallFrame, CpuProfile } from '../../bench/profile/cpuprofile.js';

export const REPO = '/repo';
export const url = (relative: string): string => `file://${REPO}/${relative}`;

export interface SyntheticNode {
  readonly key: string;
  readonly parent?: string;
  readonly frame: Partial<CallFrame> & Pick<CallFrame, 'functionName'>;
}

export function frame(functionName: string, file: string, lineNumber = 0, columnNumber = 0): SyntheticNode['frame'] {
  return {
    functionName,
    url: file === '' ? '' : url(file),
    lineNumber,
    columnNumber,
    scriptId: file === '' ? '0' : '1',
  };
}

export function pseudo(name: string): SyntheticNode['frame'] {
  return { functionName: name, url: '', lineNumber: -1, columnNumber: -1, scriptId: '0' };
}

export class ProfileBuilder {
  readonly #nodes: SyntheticNode[] = [{ key: 'root', frame: pseudo('(root)') }];
  readonly #samples: { key: string; us: number }[] = [];

  node(key: string, parent: string, callFrame: SyntheticNode['frame']): this {
    this.#nodes.push({ key, parent, frame: callFrame });
    return this;
  }

  sample(key: string, us: number, times = 1): this {
    for (let i = 0; i < times; i++) this.#samples.push({ key, us });
    return this;
  }

  build(): CpuProfile {
    const ids = new Map(this.#nodes.map((n, i) => [n.key, i + 1]));
    const nodes = this.#nodes.map((n, i) => ({
      id: i + 1,
      callFrame: { scriptId: '1', url: '', lineNumber: 0, columnNumber: 0, ...n.frame },
      hitCount: this.#samples.filter((s) => s.key === n.key).length,
      children: this.#nodes.filter((c) => c.parent === n.key).map((c) => ids.get(c.key)!),
    }));
    // timeDeltas[i] is the gap before sample i; sample i lasts until sample i+1,
    // so the delta after a sample carries that sample's duration.
    const startTime = 1_000_000;
    const timeDeltas: number[] = [];
    let previous = 0;
    for (const s of this.#samples) {
      timeDeltas.push(previous);
      previous = s.us;
    }
    const total = this.#samples.reduce((sum, s) => sum + s.us, 0);
    return {
      nodes,
      startTime,
      endTime: startTime + total,
      samples: this.#samples.map((s) => ids.get(s.key)!),
      timeDeltas,
    };
  }
}
