/**
 * The harmless-edit campaign's written list (docs/adr/0071-harmless-edit-campaign.md):
 * edits that change no work the lanes count, outside the probe's import graph
 * (measuring and report modules, a renamed file, a moved test) and inside it
 * (src/kernel: a comment, a renamed local, two imports reordered, an unused
 * export). Each edit is a set of anchored text replacements and file moves,
 * applied to a checkout; an anchor that is missing (the code moved) fails
 * loudly with EditDoesNotApply, so the campaign never measures an unedited
 * tree as an edited one.
 */
import { readFile, rename, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GateError } from '../../bench/gate/gate-error.js';

export class EditDoesNotApply extends GateError {
  readonly code = 'EditDoesNotApply';
}

/** Replace `anchor` (which must occur exactly once) in `file` by `replacement`. */
export interface Replacement {
  readonly kind: 'replace';
  readonly file: string;
  readonly anchor: string;
  readonly replacement: string;
}

/** Move `from` to `to` (a renamed or moved file). */
export interface Move {
  readonly kind: 'move';
  readonly from: string;
  readonly to: string;
}

export type EditStep = Replacement | Move;

export interface HarmlessEdit {
  readonly name: string;
  /** Whether the edited files are imported by the probe (bench/probes/probe.ts): inside its graph, or outside. */
  readonly graph: 'inside' | 'outside';
  readonly description: string;
  readonly steps: readonly EditStep[];
}

const ADDED_FUNCTION = `

// Added by the harmless-edit campaign: a function no caller reaches.
export function harmlessEditUnused(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value * 2;
  return total;
}
`;

const addAtEnd = (file: string, lastLines: string): Replacement => ({
  kind: 'replace',
  file,
  anchor: lastLines,
  replacement: `${lastLines}${ADDED_FUNCTION}`,
});

export const HARMLESS_EDITS: readonly HarmlessEdit[] = Object.freeze([
  {
    name: 'staircase-function-and-comment',
    graph: 'outside',
    description: 'a function and a comment added to a measuring module (bench/staircase/segments.ts)',
    steps: [addAtEnd('bench/staircase/segments.ts', '    clamped: split.clamped,\n  };\n}\n')],
  },
  {
    name: 'markdown-function-and-comment',
    graph: 'outside',
    description: 'a function and a comment added to a report writer (bench/markdown/text-bars.ts)',
    steps: [
      addAtEnd(
        'bench/markdown/text-bars.ts',
        "  return parts.map((part, i) => part.glyph.repeat(cells[i]!)).join('');\n}\n",
      ),
    ],
  },
  {
    name: 'report-file-renamed',
    graph: 'outside',
    description: 'bench/report/log-axis.ts renamed to log-scale-axis.ts, its three importers fixed',
    steps: [
      { kind: 'move', from: 'bench/report/log-axis.ts', to: 'bench/report/log-scale-axis.ts' },
      {
        kind: 'replace',
        file: 'bench/report/sweep-chart.ts',
        anchor: "from './log-axis.js';",
        replacement: "from './log-scale-axis.js';",
      },
      {
        kind: 'replace',
        file: 'bench/report/history-chart.ts',
        anchor: "from './log-axis.js';",
        replacement: "from './log-scale-axis.js';",
      },
      {
        kind: 'replace',
        file: 'bench/report/staircase-chart.ts',
        anchor: "import { COMPACT_DECADE, logAxis } from './log-axis.js';",
        replacement: "import { COMPACT_DECADE, logAxis } from './log-scale-axis.js';",
      },
    ],
  },
  {
    name: 'test-moved',
    graph: 'outside',
    description: 'test/staircase/run-strategies.test.ts moved to test/world/ (same depth: its imports hold)',
    steps: [{ kind: 'move', from: 'test/staircase/run-strategies.test.ts', to: 'test/world/run-strategies.test.ts' }],
  },
  {
    name: 'kernel-comment',
    graph: 'inside',
    description: 'a comment added in src/kernel/catalogue/turn-strategy.ts',
    steps: [
      {
        kind: 'replace',
        file: 'src/kernel/catalogue/turn-strategy.ts',
        anchor: "import { abortReason } from '../abort.js';\n",
        replacement:
          '// Added by the harmless-edit campaign: a comment, which changes no work.\n' +
          "import { abortReason } from '../abort.js';\n",
      },
    ],
  },
  {
    name: 'kernel-local-renamed',
    graph: 'inside',
    description:
      'a local renamed in ceilingKey (src/kernel/registry/ceiling-key.ts, run for every registered definition)',
    steps: [
      {
        kind: 'replace',
        file: 'src/kernel/registry/ceiling-key.ts',
        anchor:
          '  const { resource } = ceiling;\n' +
          '  return JSON.stringify([\n' +
          '    resource.namespace,\n' +
          '    ceiling.action,\n' +
          '    resource.owner === undefined ? null : addressKey(resource.owner),\n' +
          '    resource.path,\n' +
          '  ]);',
        replacement:
          '  const { resource: ceilingResource } = ceiling;\n' +
          '  return JSON.stringify([\n' +
          '    ceilingResource.namespace,\n' +
          '    ceiling.action,\n' +
          '    ceilingResource.owner === undefined ? null : addressKey(ceilingResource.owner),\n' +
          '    ceilingResource.path,\n' +
          '  ]);',
      },
    ],
  },
  {
    name: 'kernel-imports-reordered',
    graph: 'inside',
    description: 'two import lines swapped in src/kernel/registry/catalogue-shape.ts',
    steps: [
      {
        kind: 'replace',
        file: 'src/kernel/registry/catalogue-shape.ts',
        anchor:
          "import { DuplicateToolName } from './tool-registry.js';\n" +
          'import { ceilingKeyOf, isRegisteredDefinition, markSortedRegistered } ' +
          "from './registered-definitions.js';\n",
        replacement:
          'import { ceilingKeyOf, isRegisteredDefinition, markSortedRegistered } ' +
          "from './registered-definitions.js';\n" +
          "import { DuplicateToolName } from './tool-registry.js';\n",
      },
    ],
  },
  {
    name: 'kernel-unused-export',
    graph: 'inside',
    description: 'an export nothing imports added to src/kernel/registry/ceiling-key.ts',
    steps: [
      {
        kind: 'replace',
        file: 'src/kernel/registry/ceiling-key.ts',
        anchor: "import type { Requirement } from '../contracts/index.js';\n",
        replacement: `import type { Requirement } from '../contracts/index.js';${ADDED_FUNCTION}`,
      },
    ],
  },
]);

/** Every anchor's and moved file's problem on the checkout at `root` (none: the list applies). */
export async function editProblems(root: string, edit: HarmlessEdit): Promise<string[]> {
  const problems: string[] = [];
  for (const step of edit.steps) {
    if (step.kind === 'move') {
      const present = await readFile(join(root, step.from), 'utf8').then(
        () => true,
        () => false,
      );
      if (!present) problems.push(`${edit.name}: ${step.from} (to move) does not exist`);
      continue;
    }
    const text = await readFile(join(root, step.file), 'utf8').catch(() => undefined);
    if (text === undefined) problems.push(`${edit.name}: ${step.file} does not exist`);
    else {
      const occurrences = text.split(step.anchor).length - 1;
      if (occurrences !== 1)
        problems.push(`${edit.name}: the anchor in ${step.file} occurs ${occurrences} times, not once`);
    }
  }
  return problems;
}

/**
 * Applies `edit` to the checkout at `root`, step by step; throws EditDoesNotApply, touching nothing, when an anchor or
 * file is missing.
 */
export async function applyEdit(root: string, edit: HarmlessEdit): Promise<void> {
  const problems = await editProblems(root, edit);
  if (problems.length > 0)
    throw new EditDoesNotApply(`harmless edit ${edit.name} no longer applies: ${problems.join('; ')}`);
  for (const step of edit.steps) {
    if (step.kind === 'move') {
      await mkdir(dirname(join(root, step.to)), { recursive: true });
      await rename(join(root, step.from), join(root, step.to));
    } else {
      const path = join(root, step.file);
      const text = await readFile(path, 'utf8');
      await writeFile(
        path,
        text.replace(step.anchor, () => step.replacement),
      );
    }
  }
}
