import { describe, expect, it } from 'vitest';
import { analyseCpuProfile } from '../../bench/profile/profile-analysis.js';
import { PROFILE_SUMMARY_SCHEMA_VERSION, renderProfileSummary } from '../../bench/markdown/profile-summary.js';
import type { ProfileSummary, StrategyProfile } from '../../bench/markdown/profile-summary.js';
import { ProfileBuilder, REPO, frame, pseudo } from './synthetic-profile.js';

/**
 * A kernel turn where registration takes `registerUs` and the rest of the kernel `restUs` (whole ms: one 1 ms sample
 * each).
 */
function kernelProfile(registerUs: number, restUs: number, argumentParsingUs = 0) {
  const builder = new ProfileBuilder()
    .node('invoke', 'root', frame('invokeTool', 'src/kernel/operations/invoke-tool.ts', 40))
    .node('register', 'invoke', frame('registerEntry', 'src/kernel/registry/tool-registry.ts', 37))
    .node('zod-args', 'invoke', frame('inst._zod.parse', 'node_modules/zod/v4/core/schemas.js', 1198))
    .node('module-load', 'root', frame('compileSourceTextModule', '', -1))
    .node('gc', 'root', pseudo('(garbage collector)'));
  const ms = (us: number) => us / 1000;
  if (registerUs > 0) builder.sample('register', 1000, ms(registerUs));
  if (argumentParsingUs > 0) builder.sample('zod-args', 1000, ms(argumentParsingUs));
  return builder.sample('invoke', 1000, ms(restUs)).sample('gc', 1000, 5).build();
}

describe('the registration verdict', () => {
  it('is dominant when registration-stack time is at least half of kernel time', () => {
    const v = analyseCpuProfile(kernelProfile(6000, 4000)).verdict;
    expect(v.kind).toBe('dominant');
    expect(v.shareOfKernel).toBeCloseTo(0.6, 10);
    expect(v.statement).toMatch(/^Registration\/validation work dominates: 60\.0% of kernel time/);
  });

  it('is present when a top frame registers but registration does not dominate', () => {
    const v = analyseCpuProfile(kernelProfile(1000, 9000)).verdict;
    expect(v.kind).toBe('present');
    expect(v.registrationTopFrames).toBe(1);
    // invokeTool 9 samples, (garbage collector) 5, registerEntry 1: third of 15 active samples.
    expect(v.firstRegistrationFrame).toEqual({ rank: 3, functionName: 'registerEntry', share: 1 / 15 });
    expect(v.statement).toContain('(highest: `registerEntry`, #3, 6.7% of active time)');
  });

  it('is absent when no top frame spends most of its time registering', () => {
    const v = analyseCpuProfile(kernelProfile(1000, 9000), { topN: 2 }).verdict;
    expect(v.kind).toBe('absent');
    expect(v.registrationTopFrames).toBe(0);
    expect(v.statement).toMatch(/absent from the top 2 frames/);
  });

  it('does not count zod parsing of call arguments as registration work, and says so', () => {
    const v = analyseCpuProfile(kernelProfile(0, 3000, 7000)).verdict;
    expect(v.kind).toBe('absent');
    expect(v.shareOfKernel).toBe(0);
    expect(v.otherValidationTopFrames).toBe(1);
    expect(v.statement).toMatch(
      /1 other schema-validation frame in the top \d+ parse calls and contexts, not definitions/,
    );
  });
});

function strategy(name: StrategyProfile['strategy'], registerUs: number, clinic: boolean): StrategyProfile {
  return {
    strategy: name,
    files: {
      flameGraph: `${name}/flamegraph.html`,
      cpuProfile: `${name}/cpu.cpuprofile`,
      sourceMaps: `${name}/cpu.source-maps.json`,
      ...(clinic
        ? { clinicDoctor: `${name}/concurrent.clinic-doctor.html`, clinicFlame: `${name}/concurrent.clinic-flame.html` }
        : {}),
    },
    workload: `profile-workload: ${name}: 10 turns (1 at a time), 270 calls in 12 ms`,
    analysis: analyseCpuProfile(kernelProfile(registerUs, 4000), { repoRoot: REPO, topN: 4 }),
  };
}

function summary(clinic: boolean): ProfileSummary {
  return {
    schemaVersion: PROFILE_SUMMARY_SCHEMA_VERSION,
    commit: 'abc1234-dirty',
    generatedAt: '2026-11-30T09:00:00.000Z',
    environment: { node: '20.20.2', v8: '11.3', platform: 'linux-x64', cpu: 'Test CPU | 2 GHz', cores: 2 },
    turns: 10,
    callsPerTurn: 27,
    ...(clinic ? { clinicConcurrency: 8 } : {}),
    topN: 4,
    strategies: [strategy('rederive', 20000, clinic), strategy('turn', 1000, clinic)],
  };
}

describe('renderProfileSummary', () => {
  const markdown = renderProfileSummary(summary(true));
  const lines = markdown.split('\n');

  it('has a title naming the commit, a verdict table, the method, and one section per strategy in order', () => {
    expect(lines[0]).toBe('# Profile summary: `abc1234-dirty`');
    const headings = lines.filter((l) => l.startsWith('## '));
    expect(headings).toEqual(['## Verdicts', '## How the figures are computed', '## `rederive`', '## `turn`']);
  });

  it('puts one verdict row per strategy with its computed kind', () => {
    const start = lines.indexOf('## Verdicts');
    const rows = lines.slice(start).filter((l) => l.startsWith('| `'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^\| `rederive` \| 83\.3% \| .* \| dominant \|$/);
    expect(rows[1]).toMatch(/^\| `turn` \| .* \| (present|absent) \|$/);
  });

  it('lists the top frames of each strategy in a table with every column', () => {
    const section = lines.slice(lines.indexOf('## `rederive`'), lines.indexOf('## `turn`'));
    const header = section.findIndex((l) =>
      l.startsWith('| # | function | file:line | self ms | share | class | on registration stack |'),
    );
    expect(header).toBeGreaterThan(0);
    const rows = section.slice(header + 2).filter((l) => l.startsWith('| '));
    // Three frames were sampled, fewer than the top 4 asked for.
    expect(rows).toHaveLength(3);
    expect(rows[0]).toBe(
      '| 1 | <code>registerEntry</code> | src/kernel/registry/tool-registry.ts:38 ' +
        '| 20.0 | 69.0% | registration | 100.0% |',
    );
  });

  it('links the flame graph, CPU profile and clinic reports relative to the summary', () => {
    expect(markdown).toContain('[flame graph (0x)](rederive/flamegraph.html)');
    expect(markdown).toContain('[CPU profile](rederive/cpu.cpuprofile)');
    expect(markdown).toContain('[clinic doctor](turn/concurrent.clinic-doctor.html)');
    expect(markdown).toContain('[clinic flame](turn/concurrent.clinic-flame.html)');
  });

  it('says clinic was skipped, and links no clinic report, when it did not run', () => {
    const skipped = renderProfileSummary(summary(false));
    expect(skipped).toContain('clinic was skipped (`--no-clinic`)');
    expect(skipped).not.toContain('clinic doctor](');
  });

  it('discloses how evenly the sampler ran for each strategy', () => {
    expect(
      lines.filter((l) => l.startsWith('Sampling: median interval 1.00 ms; 0.0% of the span fell in gaps')),
    ).toHaveLength(2);
  });

  it('states the frame classifier and the verdict rule it applied', () => {
    expect(markdown).toMatch(/`registration` = `registerEntry` \/ `register`/);
    expect(markdown).toMatch(/`dominant` when registration-stack time is ≥ 50\.0% of kernel time/);
  });

  it('keeps table cells intact when a name holds a pipe or a backtick', () => {
    expect(markdown).toContain('Test CPU \\| 2 GHz');
  });
});
