/**
 * How runClinic judges a clinic run, always run, with stand-ins for clinic's
 * entry script (test/fixtures/clinic-stand-in.mjs and a silent one): a clinic
 * that exits 0 without a report (as the real one does when NO_INSIGHT is
 * missing and no terminal is attached), a flame graph of another thread, a
 * failing run, a stale report from an earlier run, and a good run's paths and
 * workload line. clinic itself is slow (seconds per run): set
 * COSTLAB_CLINIC_TEST=1 to run it for real too, on the bundled workload
 * `costlab profile` gives it.
 */
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { clinicEnv, runClinic } from '../../bench/profile/clinic-run.js';
import { ClinicProducedNoFile, ProfiledWrongThread, ProfilerFailed } from '../../bench/profile/profile-errors.js';
import { WORKLOAD_BUNDLE_NAME, bundleWorkload } from '../../bench/profile/workload-bundle.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const scratch: string[] = [];
const tempDir = async (): Promise<string> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'costlab-clinic-test-'));
  scratch.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('runClinic', () => {
  it('fails with ClinicProducedNoFile when clinic exits 0 and writes no report', async () => {
    const dir = await tempDir();
    const silentClinic = path.join(dir, 'silent-clinic.mjs');
    await writeFile(silentClinic, 'process.exitCode = 0;\n');
    const run = runClinic('doctor', {
      cwd: repoRoot,
      dest: path.join(dir, 'out'),
      nodeArgs: ['scripts/profile-workload.ts'],
      workloadFile: 'profile-workload.ts',
      label: 'turn',
      clinicBin: silentClinic,
    });
    await expect(run).rejects.toBeInstanceOf(ClinicProducedNoFile);
    await expect(run).rejects.toThrow(/clinic doctor exited 0 but wrote no doctor report/);
  });

  const STAND_IN = path.join(repoRoot, 'test/fixtures/clinic-stand-in.mjs');
  const standInRun = async (tool: 'doctor' | 'flame', mode: string, dest?: string) => {
    const out = dest ?? path.join(await tempDir(), 'out');
    const options = {
      cwd: repoRoot,
      dest: out,
      nodeArgs: ['bundle/profile-workload.mjs'],
      workloadFile: 'profile-workload.mjs',
      label: 'turn',
      clinicBin: STAND_IN,
      env: { ...clinicEnv(), STAND_IN_MODE: mode },
    };
    return { out, run: runClinic(tool, options) };
  };

  it(
    'answers a good run with its report, data folder and the ' +
      'workload line, clearing an earlier run of the same tool',
    async () => {
      const out = path.join(await tempDir(), 'out');
      await mkdir(path.join(out, 'concurrent.clinic-doctor'), { recursive: true });
      await writeFile(path.join(out, 'concurrent.clinic-doctor', 'stale-data'), 'from an earlier run');
      await writeFile(path.join(out, 'concurrent.clinic-flame.html'), 'kept: another tool');
      const doctor = await (await standInRun('doctor', 'ok', out)).run;
      expect(doctor).toMatchObject({
        tool: 'doctor',
        html: path.join(out, 'concurrent.clinic-doctor.html'),
        dataDir: path.join(out, 'concurrent.clinic-doctor'),
        workload: 'profile-workload: 40 turns (4 at a time) in 12 ms',
      });
      expect(await readdir(path.join(out, 'concurrent.clinic-doctor'))).toEqual([]);
      expect((await readdir(out)).sort()).toEqual([
        'concurrent.clinic-doctor',
        'concurrent.clinic-doctor.html',
        'concurrent.clinic-flame.html',
      ]);
      const flame = await (await standInRun('flame', 'ok', out)).run;
      expect(flame.html).toBe(path.join(out, 'concurrent.clinic-flame.html'));
    },
  );

  it('refuses a flame graph whose samples hold no frame of the workload, as ProfiledWrongThread', async () => {
    const { run } = await standInRun('flame', 'foreign');
    await expect(run).rejects.toBeInstanceOf(ProfiledWrongThread);
    await expect(run).rejects.toThrow(/its samples hold no frame of profile-workload\.mjs/);
  });

  it('refuses a run that wrote its report but failed, as ProfilerFailed', async () => {
    const { run } = await standInRun('doctor', 'failing');
    await expect(run).rejects.toBeInstanceOf(ProfilerFailed);
  });

  it.runIf(process.env.COSTLAB_CLINIC_TEST === '1')(
    'writes a doctor and a flame report of the concurrent load (COSTLAB_CLINIC_TEST=1)',
    async () => {
      const dest = await tempDir();
      const bundle = await bundleWorkload(repoRoot, await tempDir());
      const options = {
        cwd: repoRoot,
        dest,
        nodeArgs: [bundle, '--strategy', 'turn', '--turns', '40', '--concurrent', '4'],
        workloadFile: WORKLOAD_BUNDLE_NAME,
        label: 'turn',
      };
      const doctor = await runClinic('doctor', options);
      const flame = await runClinic('flame', options);
      expect((await stat(doctor.html)).size).toBeGreaterThan(0);
      expect((await stat(flame.html)).size).toBeGreaterThan(0);
      expect(doctor.workload).toMatch(/40 turns \(4 at a time\)/);
      expect((await readdir(dest)).sort()).toEqual([
        'concurrent.clinic-doctor',
        'concurrent.clinic-doctor.html',
        'concurrent.clinic-flame',
        'concurrent.clinic-flame.html',
      ]);
    },
    120_000,
  );
});
