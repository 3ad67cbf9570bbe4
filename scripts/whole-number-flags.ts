import { parseArgs } from 'node:util';

/** One flag: its default and the least it accepts. */
export interface WholeNumberFlag {
  readonly default: number;
  readonly least: number;
}

/**
 * A measuring script's flags, each a whole number (`--runs 3`): read from the command line, or the script stops with
 * exit 2 and a line naming every flag and the least it takes.
 */
export function wholeNumberFlags<K extends string>(
  script: string,
  flags: Readonly<Record<K, WholeNumberFlag>>,
): Record<K, number> {
  const names = Object.keys(flags) as K[];
  const { values } = parseArgs({
    options: Object.fromEntries(names.map((name) => [name, { type: 'string', default: String(flags[name].default) }])),
  });
  const read = {} as Record<K, number>;
  for (const name of names) {
    const value = Number(values[name]);
    if (!Number.isSafeInteger(value) || value < flags[name].least) {
      const wanted = names.map((flag) => `--${flag} a whole number ≥ ${flags[flag].least}`).join(', ');
      process.stderr.write(`${script}: takes ${wanted}\n`);
      process.exit(2);
    }
    read[name] = value;
  }
  return read;
}
