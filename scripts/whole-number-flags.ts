import { parseArgs } from 'node:util';

/** One flag: its default and the least it accepts. */
export interface WholeNumberFlag {
  readonly default: number;
  readonly least: number;
}

/**
 * A measuring script's flags, each a whole number (`--runs 3`): read from the command line, or the script stops with
 * exit 2 and a line naming every flag and the least it takes. A script that takes names after its flags (which of its
 * passes to run) lists them in `names`; any other word stops it the same way.
 */
export function wholeNumberFlags<K extends string>(
  script: string,
  flags: Readonly<Record<K, WholeNumberFlag>>,
  names: readonly string[] = [],
): Record<K, number> & { readonly names: readonly string[] } {
  const flagNames = Object.keys(flags) as K[];
  const wanted = (): string =>
    [
      ...flagNames.map((flag) => `--${flag} a whole number ≥ ${flags[flag].least}`),
      ...(names.length === 0 ? [] : [`then any of ${names.join(', ')}`]),
    ].join(', ');
  const stop = (): never => {
    process.stderr.write(`${script}: takes ${wanted()}\n`);
    process.exit(2);
  };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      options: Object.fromEntries(
        flagNames.map((name) => [name, { type: 'string', default: String(flags[name].default) }]),
      ),
      allowPositionals: names.length > 0,
    });
  } catch {
    return stop();
  }
  const read = {} as Record<K, number>;
  for (const name of flagNames) {
    const value = Number(parsed.values[name]);
    if (!Number.isSafeInteger(value) || value < flags[name].least) return stop();
    read[name] = value;
  }
  if (parsed.positionals.some((word) => !names.includes(word))) return stop();
  return { ...read, names: [...new Set(parsed.positionals)] };
}
