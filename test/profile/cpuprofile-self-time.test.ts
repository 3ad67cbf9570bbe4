import { describe, expect, it } from 'vitest';
import { InvalidCpuProfile, nodeSelfTimes, parseCpuProfile, samplingHealth } from '../../bench/profile/cpuprofile.js';
import { analyseCpuProfile } from '../../bench/profile/profile-analysis.js';
import { ProfileBuilder, REPO, frame, pseudo } from './synthetic-profile.js';

/**
 * root ─ main (bench driver)
 *        ├─ invokeTool (kernel) ─ parse (zod)          ← argument parsing
 *        └─ registerEntry (kernel registry) ─ parse (zod) ← same zod frame, under registration
 * root ─ (garbage collector), (idle)
 */
function workloadProfile() {
  return (
    new ProfileBuilder()
      .node('main', 'root', frame('runWorkload', 'bench/profile/profile-workload.ts', 10, 2))
      .node('invoke', 'main', frame('invokeTool', 'src/kernel/operations/invoke-tool.ts', 40, 0))
      .node('zod-a', 'invoke', frame('inst._zod.parse', 'node_modules/zod/v4/core/schemas.js', 1722, 22))
      .node('register', 'main', frame('registerEntry', 'src/kernel/registry/tool-registry.ts', 37, 0))
      .node('zod-r', 'register', frame('inst._zod.parse', 'node_modules/zod/v4/core/schemas.js', 1722, 22))
      .node('gc', 'root', pseudo('(garbage collector)'))
      .node('idle', 'root', pseudo('(idle)'))
      // Every sample lasts 0.5 ms here, so each counts 0.5 ms.
      .sample('zod-r', 500, 6) // 3.0 ms of zod under registration
      .sample('register', 500, 5) // 2.5 ms registerEntry itself
      .sample('zod-a', 500, 2) // 1.0 ms of zod parsing arguments
      .sample('invoke', 500, 1) // 0.5 ms
      .sample('gc', 500, 3) // 1.5 ms
      .sample('main', 500, 2) // 1.0 ms
      .sample('idle', 500, 7) // 3.5 ms, not active
      .build()
  );
}

describe('nodeSelfTimes', () => {
  const byName = (profile: ReturnType<typeof workloadProfile>, self: Map<number, number>, name: string) =>
    [...self.entries()]
      .filter(([id]) => profile.nodes.find((n) => n.id === id)!.callFrame.functionName === name)
      .reduce((sum, [, us]) => sum + us, 0);

  it('gives each node its sample count × the mean interval, adding up to the profile’s span', () => {
    const profile = workloadProfile();
    const self = nodeSelfTimes(profile);
    expect(byName(profile, self, 'inst._zod.parse')).toBe(4000);
    expect(byName(profile, self, 'registerEntry')).toBe(2500);
    expect(byName(profile, self, 'invokeTool')).toBe(500);
    expect(byName(profile, self, '(garbage collector)')).toBe(1500);
    expect(byName(profile, self, '(idle)')).toBe(3500);
    expect([...self.values()].reduce((a, b) => a + b, 0)).toBe(profile.endTime - profile.startTime);
  });

  it('spreads a gap in sampling over all frames instead of charging it to the frame sampled before it', () => {
    // 19 samples of `busy` 1 ms apart, and one of `getter` followed by a 100 ms gap (the process descheduled).
    const profile = new ProfileBuilder()
      .node('busy', 'root', frame('busy', 'x.js'))
      .node('getter', 'root', frame('getter', 'x.js'))
      .sample('busy', 1000, 10)
      .sample('getter', 100_000)
      .sample('busy', 1000, 9)
      .build();
    const self = nodeSelfTimes(profile);
    const getter = byName(profile, self, 'getter');
    expect(getter / (profile.endTime - profile.startTime)).toBeCloseTo(1 / 20, 10);
    const health = samplingHealth(profile);
    expect(health.medianIntervalUs).toBe(1000);
    expect(health.gapShare).toBeCloseTo(100 / 119, 10);
  });
});

describe('analyseCpuProfile', () => {
  const analysis = analyseCpuProfile(workloadProfile(), { repoRoot: REPO });

  it('aggregates a function sampled under two callers into one frame and ranks frames by self time', () => {
    expect(analysis.topFrames.map((f) => [f.functionName, f.selfMs])).toEqual([
      ['inst._zod.parse', 4],
      ['registerEntry', 2.5],
      ['(garbage collector)', 1.5],
      ['runWorkload', 1],
      ['invokeTool', 0.5],
    ]);
  });

  it('gives each frame its share of active (non-idle) time and its 1-based, repo-relative location', () => {
    expect(analysis.sampledMs).toBe(13);
    expect(analysis.idleMs).toBe(3.5);
    expect(analysis.activeMs).toBe(9.5);
    const zod = analysis.topFrames[0]!;
    expect(zod.share).toBeCloseTo(4 / 9.5, 10);
    expect(zod.location).toBe('node_modules/zod/v4/core/schemas.js:1723');
    expect(analysis.topFrames[1]!.location).toBe('src/kernel/registry/tool-registry.ts:38');
    expect(analysis.topFrames[2]!.location).toBe('(v8)');
  });

  it('splits a frame’s self time by whether it was sampled on a registration stack', () => {
    expect(analysis.topFrames[0]!.onRegistrationStack).toBeCloseTo(3 / 4, 10);
    expect(analysis.topFrames[1]!.onRegistrationStack).toBe(1);
    expect(analysis.topFrames[4]!.onRegistrationStack).toBe(0);
  });

  it('measures kernel time as samples with a kernel frame on their stack', () => {
    // zod under invokeTool (1.0) + invokeTool (0.5) + zod under registerEntry (3.0) + registerEntry (2.5)
    expect(analysis.kernelMs).toBeCloseTo(7, 10);
    expect(analysis.registrationMs).toBeCloseTo(5.5, 10);
    expect(analysis.verdict.shareOfKernel).toBeCloseTo(5.5 / 7, 10);
    expect(analysis.verdict.shareOfActive).toBeCloseTo(5.5 / 9.5, 10);
  });

  it('keeps only the top N frames', () => {
    expect(analyseCpuProfile(workloadProfile(), { topN: 2 }).topFrames).toHaveLength(2);
  });

  it('maps positions through a source map when one is given', () => {
    const mapped = analyseCpuProfile(workloadProfile(), {
      repoRoot: REPO,
      mapPosition: (_url, line, column) => ({ line: line + 100, column }),
    });
    expect(mapped.topFrames[1]!.location).toBe('src/kernel/registry/tool-registry.ts:138');
  });
});

describe('parseCpuProfile', () => {
  it('accepts a well-formed profile', () => {
    expect(() => parseCpuProfile(JSON.parse(JSON.stringify(workloadProfile())))).not.toThrow();
  });

  it('refuses a sample naming an unknown node, and mismatched samples and deltas', () => {
    const profile = workloadProfile();
    expect(() => parseCpuProfile({ ...profile, samples: [...profile.samples.slice(0, -1), 999] })).toThrow(
      InvalidCpuProfile,
    );
    expect(() => parseCpuProfile({ ...profile, timeDeltas: profile.timeDeltas.slice(1) })).toThrow(/time deltas/);
    expect(() => parseCpuProfile({ nodes: [] })).toThrow(InvalidCpuProfile);
  });
});
