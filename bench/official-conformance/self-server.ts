/**
 * costlab's own server as the official suite sees it: `costlab serve --http`
 * over the world file made for the suite (its fixture tools, canned and from
 * an upstream), on loopback, behind the bearer proxy of ADR 0052.
 */
import { spawn } from 'node:child_process';
import { PACKAGE_ROOT } from '../../src/package/index.js';
import { tailLines } from '../process/stderr-tail.js';
import type { HttpTransportKind } from '../../src/mcp/index.js';
import { startBearerProxy } from './bearer-proxy.js';

const CONFORMANCE_WORLD = 'bench/official-conformance/conformance-world.json';
const START_TIMEOUT_MS = 60_000;

/** The loopback URL and execution token in what `costlab serve --http` has printed so far, once both are there. */
export function servedConnection(stdout: string): { url: string; token: string } | undefined {
  const url = /"url": "(http:\/\/127\.0\.0\.1:\d+\/mcp)"/.exec(stdout)?.[1];
  const token = /"Authorization": "Bearer ([^"]+)"/.exec(stdout)?.[1];
  return url === undefined || token === undefined ? undefined : { url, token };
}

export interface SelfServer {
  /** The URL the suite is given: the proxy's. */
  readonly url: string;
  /** costlab's own URL and token, for reading its capabilities directly. */
  readonly upstream: { readonly url: string; readonly headers: Record<string, string> };
  close(): Promise<void>;
}

export async function startSelfServer(transport: HttpTransportKind = 'sdk'): Promise<SelfServer> {
  const child = spawn(
    process.execPath,
    [
      'bin/costlab.mjs',
      'serve',
      '--http',
      '--http-transport',
      transport,
      '--world',
      CONFORMANCE_WORLD,
      '--audit',
      '/dev/null',
    ],
    { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-8192);
  });
  const started = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `costlab serve --http printed no connection config within ${START_TIMEOUT_MS / 1000} ` +
              `s: ${tailLines(log, 5)}`,
          ),
        ),
      START_TIMEOUT_MS,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`costlab serve --http exited (${code}): ${tailLines(log, 5)}`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const config = servedConnection(text);
      if (config === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve(config);
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const proxy = await startBearerProxy(started.url, started.token);
  return {
    url: proxy.url,
    upstream: { url: started.url, headers: { Authorization: `Bearer ${started.token}` } },
    close: async () => {
      await proxy.close();
      await stop();
    },
  };
}
