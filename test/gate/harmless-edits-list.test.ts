/**
 * The harmless-edit campaign's list (scripts/gate/harmless-edits-list.ts) must
 * apply to today's tree: an edit whose anchor or file moved would let the
 * campaign report an unedited tree as an edited one. And each edit's label
 * must be true: an "inside" edit touches a module the probe bundle holds, an
 * "outside" one none. Structure only; the counts come from a run of
 * scripts/gate/harmless-edits.ts.
 */
import { cp, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { PROBE_SOURCE, probeBuildOptions } from '../../bench/gate/probe-bundle.js';
import { applyEdit, EditDoesNotApply, editProblems, HARMLESS_EDITS } from '../../scripts/gate/harmless-edits-list.js';
import type { HarmlessEdit } from '../../scripts/gate/harmless-edits-list.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const touched = (edit: HarmlessEdit): string[] =>
  edit.steps.map((step) => (step.kind === 'move' ? step.from : step.file));

/** A scratch directory holding copies of just the files `edit` touches. */
async function scratchCopy(edit: HarmlessEdit): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'harmless-edit-'));
  for (const file of touched(edit)) await cp(path.join(REPO_ROOT, file), path.join(dir, file));
  return dir;
}

const scratch: string[] = [];
afterEach(async () => {
  for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the harmless-edit list', () => {
  it('holds edits on both sides of the probe graph, each named once', () => {
    const names = HARMLESS_EDITS.map((edit) => edit.name);
    expect(new Set(names).size).toBe(names.length);
    expect(HARMLESS_EDITS.filter((edit) => edit.graph === 'inside').length).toBeGreaterThanOrEqual(4);
    expect(HARMLESS_EDITS.filter((edit) => edit.graph === 'outside').length).toBeGreaterThanOrEqual(4);
    expect(HARMLESS_EDITS.some((edit) => edit.steps.some((step) => step.kind === 'move'))).toBe(true);
  });

  it.each(HARMLESS_EDITS.map((edit) => [edit.name, edit] as const))(
    '%s: every anchor occurs once and every moved file exists in the working tree',
    async (_name, edit) => {
      expect(await editProblems(REPO_ROOT, edit)).toEqual([]);
    },
  );

  it.each(HARMLESS_EDITS.map((edit) => [edit.name, edit] as const))(
    '%s: applied to a copy, leaves each replacement in place and each moved file at its new path',
    async (_name, edit) => {
      const dir = await scratchCopy(edit);
      scratch.push(dir);
      await applyEdit(dir, edit);
      for (const step of edit.steps) {
        if (step.kind === 'move') {
          expect((await stat(path.join(dir, step.to))).isFile()).toBe(true);
          await expect(stat(path.join(dir, step.from))).rejects.toThrow();
        } else {
          expect(await readFile(path.join(dir, step.file), 'utf8')).toContain(step.replacement);
        }
      }
    },
  );

  it('an edit whose anchor is gone is refused by name, and nothing is written', async () => {
    const edit = HARMLESS_EDITS.find((candidate) => candidate.steps.length > 1)!;
    const dir = await scratchCopy(edit);
    scratch.push(dir);
    const broken: HarmlessEdit = {
      ...edit,
      steps: [
        ...edit.steps.slice(0, -1),
        { kind: 'replace', file: touched(edit)[0]!, anchor: 'no such text', replacement: '' },
      ],
    };
    const before = await readFile(path.join(dir, touched(edit)[0]!), 'utf8');
    await expect(applyEdit(dir, broken)).rejects.toBeInstanceOf(EditDoesNotApply);
    expect(await readFile(path.join(dir, touched(edit)[0]!), 'utf8')).toBe(before);
  });

  it('labels each edit by whether the probe bundle holds the files it touches', async () => {
    const result = await build({
      ...probeBuildOptions(REPO_ROOT, PROBE_SOURCE),
      outfile: 'probe.mjs',
      write: false,
      metafile: true,
    });
    const inputs = new Set(Object.keys(result.metafile.inputs));
    for (const edit of HARMLESS_EDITS) {
      const held = touched(edit).filter((file) => inputs.has(file));
      if (edit.graph === 'inside') expect(held, edit.name).toEqual(touched(edit));
      else expect(held, edit.name).toEqual([]);
    }
  });
});
