/** Targets the tests start: fixture servers beside this folder and costlab's own `serve`, all real processes. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { servedConnection } from '../../bench/official-conformance/self-server.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/targets/', import.meta.url));
const q = (p: string): string => JSON.stringify(p);

export const sdkFixture = (n: number | '{n}'): string =>
  `stdio:${q(process.execPath)} ${q(`${FIXTURES}sdk-tools-server.mjs`)} ${n}`;
/**
 * The SDK fixture with annotations: read-only tools, a destructive `erase_records`, `count_records` with an
 * outputSchema.
 */
export const annotatedFixture = (n: number): string => `${sdkFixture(n)} --annotated`;
export const misbehaving = (...flags: string[]): string =>
  `stdio:${q(process.execPath)} ${q(`${FIXTURES}misbehaving-server.mjs`)} ${flags.join(' ')}`.trim();
export const broken = (mode: 'hang' | 'hang-after-init' | 'nonsense' | 'exit' | 'garbage' | 'huge'): string =>
  `stdio:${q(process.execPath)} ${q(`${FIXTURES}broken-server.mjs`)} ${mode}`;
/**
 * A hostile server (test/fixtures/targets/hostile-server.mjs); each argument single-quoted for the spec's shell-like
 * split.
 */
export const hostile = (...args: string[]): string =>
  `stdio:${q(process.execPath)} ${q(`${FIXTURES}hostile-server.mjs`)} ` +
  `${args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ')}`;
export const costlabStdio = (): string =>
  `stdio:${q(process.execPath)} ${q(`${REPO_ROOT}bin/costlab.mjs`)} serve --stdio --audit /dev/null`;

export interface HttpServe {
  readonly url: string;
  readonly token: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `costlab serve --http` on loopback; resolves once it has printed its URL and an
 * execution token. The connection config (with the token) comes on stdout; stderr
 * carries the server's log and is kept only to explain a failure.
 */
export function startCostlabHttp(): Promise<HttpServe> {
  const child = spawn(process.execPath, [`${REPO_ROOT}bin/costlab.mjs`, 'serve', '--http', '--audit', '/dev/null'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    let log = '';
    const timer = setTimeout(
      () => reject(new Error(`costlab serve --http printed no token within 60 s:\n${log}`)),
      60_000,
    );
    child.once('exit', (code) => reject(new Error(`costlab serve --http exited (${code}):\n${log}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const config = servedConnection(text);
      if (config === undefined) return;
      clearTimeout(timer);
      resolve({
        ...config,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
