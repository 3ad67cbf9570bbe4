/**
 * clinic itself is slow (seconds per run) and stays out of the default run:
 * set COSTLAB_CLINIC_TEST=1 to run it for real, on the bundled workload
 * `costlab profile` gives it. What always runs is the check that a clinic
 * that exits 0 without a report is caught by name — with a stand-in for
 * clinic that does exactly that, as the real one does when NO_INSIGHT is
 * missing and no terminal is attached.
 */
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runClinic } from '../../bench/profile/clinic-run.js';
import { ClinicProducedNoFile } from '../../bench/profile/profile-errors.js';
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
      expect((await readdir(dest)).sort()).toEqual(['concurrent.clinic-doctor', 'concurrent.clinic-doctor.html', 'concurrent.clinic-flame', 'concurrent.clinic-flame.html']);
    },
    120_000,
  );
});
