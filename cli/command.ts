/**
 * The shape of one costlab command module. `main.ts` names the commands and
 * their one-line summaries; a module is imported only when its command is run
 * (or its help asked for), so `costlab serve --stdio` does not load the
 * harness and the harness does not load the HTTP stack.
 */
import type { Command, OptionValues } from 'commander';

export interface CommandContext {
  /** The command's operands (e.g. compare's `<base> <head>`), after the options are taken out. */
  readonly operands: readonly string[];
  /** The command line after the command's name, as typed: recorded in results as the command that made them. */
  readonly argv: readonly string[];
}

export interface CostlabCommand {
  /** Declares the command's description, operands and options on the commander command `main` made for it. */
  define(command: Command): void;
  /**
   * Runs with the checked flag values; resolves with the exit code (0 ok, 1 regression or failure, 2 usage or could not
   * measure).
   */
  run(flags: OptionValues, context: CommandContext): Promise<number>;
}

/**
 * Types one command's flags. commander hands options over untyped, so each
 * module names the shape its `define` declares; the values have passed their
 * checks (`bench/command-line/flag-values.ts`) before `run` sees them.
 */
export function defineCommand<Flags>(spec: {
  define(command: Command): void;
  run(flags: Flags, context: CommandContext): Promise<number>;
}): CostlabCommand {
  return spec as unknown as CostlabCommand;
}
