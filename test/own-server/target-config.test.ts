/**
 * costlab.config.json at its boundary: every bad field named, credentials resolved and never echoed, --target parsed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractViolation } from '../../src/kernel/index.js';
import {
  CredentialMissing,
  loadTargetConfig,
  matchesToolPattern,
  parseTargetConfig,
  resolveIdentities,
} from '../../bench/own-server/target-config.js';
import { Redactor } from '../../bench/own-server/secrets.js';
import { TargetSpecInvalid, atSize, parseTargetSpec } from '../../bench/own-server/target-spec.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'costlab-target-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('costlab.config.json', () => {
  it('fills defaults for an empty file', () => {
    expect(parseTargetConfig({})).toMatchObject({
      calls: [],
      identities: [],
      samples: 30,
      warmup: 5,
      coldRuns: 5,
      listRepeats: 5,
    });
  });

  it('names every bad field', () => {
    const bad = {
      calls: [
        { tool: '', arguments: 3 },
        { tool: 'x', identity: 'nobody' },
      ],
      identities: [{ name: 'a', headers: { Authorization: { fromEnv: 'not a var' } } }, { name: 'a' }],
      samples: 0,
      surprise: true,
    };
    let caught: unknown;
    try {
      parseTargetConfig(bad);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContractViolation);
    expect([...(caught as ContractViolation).fields].sort()).toEqual(
      ['calls.0.tool', 'calls.0.arguments', 'identities.0.headers.Authorization.fromEnv', 'samples', 'surprise'].sort(),
    );
  });

  it('names cross-field problems once the fields themselves are valid', () => {
    expect(() =>
      parseTargetConfig({ calls: [{ tool: 'x', identity: 'nobody' }], identities: [{ name: 'a' }, { name: 'a' }] }),
    ).toThrow(expect.objectContaining({ fields: ['identities.1.name', 'calls.0.identity'] }));
  });

  it('refuses a file that is not JSON, naming the file', async () => {
    const file = path.join(scratch, 'broken.json');
    writeFileSync(file, '{ nope');
    await expect(loadTargetConfig(file)).rejects.toThrow(/broken\.json is not readable JSON/);
  });

  it('resolves credentials from the environment and a headers file, registering each with the redactor', async () => {
    const headersFile = path.join(scratch, 'headers.json');
    writeFileSync(headersFile, JSON.stringify({ 'X-Api-Key': 'file-secret-123' }));
    writeFileSync(
      path.join(scratch, 'costlab.config.json'),
      JSON.stringify({
        identities: [
          {
            name: 'ci',
            headersFile: 'headers.json',
            headers: { Authorization: { fromEnv: 'TOKEN', prefix: 'Bearer ' } },
            env: { API_KEY: { fromEnv: 'TOKEN' } },
          },
        ],
      }),
    );
    const config = await loadTargetConfig(path.join(scratch, 'costlab.config.json'));
    const redactor = new Redactor();
    const [identity] = await resolveIdentities(config, redactor, { TOKEN: 'env-secret-456' });
    expect(identity!.headers).toEqual({ 'X-Api-Key': 'file-secret-123', Authorization: 'Bearer env-secret-456' });
    expect(identity!.env).toEqual({ API_KEY: 'env-secret-456' });
    expect(redactor.scrub('echo: Bearer env-secret-456 and file-secret-123')).toBe(
      'echo: Bearer [redacted] and [redacted]',
    );
  });

  it('names a missing variable or unreadable headers file, never a value', async () => {
    const config = parseTargetConfig({
      identities: [{ name: 'ci', headers: { Authorization: { fromEnv: 'ABSENT_TOKEN' } } }],
    });
    await expect(resolveIdentities(config, new Redactor(), {})).rejects.toThrow(
      new CredentialMissing(
        "identity 'ci' header 'Authorization' needs environment variable ABSENT_TOKEN, which is not set",
      ),
    );
    const secretFile = path.join(scratch, 'not-headers.json');
    writeFileSync(secretFile, JSON.stringify({ token: 12345678 }));
    const fromFile = parseTargetConfig({ identities: [{ name: 'ci', headersFile: secretFile }] });
    const failure = await resolveIdentities(fromFile, new Redactor(), {}).catch((error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(CredentialMissing);
    expect((failure as Error).message).not.toContain('12345678');
  });

  it('matches exclusive tool patterns with * only', () => {
    expect(matchesToolPattern('alice.notes', 'alice.*')).toBe(true);
    expect(matchesToolPattern('aliceXnotes', 'alice.*')).toBe(false);
    expect(matchesToolPattern('admin.purge', 'admin.purge')).toBe(true);
  });
});

describe('--target', () => {
  it('reads stdio commands with quoted arguments and http(s) URLs', () => {
    expect(parseTargetSpec('stdio:node "my server.js" --port 1')).toMatchObject({
      kind: 'stdio',
      command: 'node',
      args: ['my server.js', '--port', '1'],
    });
    expect(parseTargetSpec('https://mcp.example.test/mcp')).toMatchObject({
      kind: 'http',
      url: 'https://mcp.example.test/mcp',
    });
    expect(atSize(parseTargetSpec('stdio:node server.js --tools {n}'), 40)).toMatchObject({
      args: ['server.js', '--tools', '40'],
    });
  });

  it('refuses what is not a target, shell operators, and credentials in a URL', () => {
    for (const bad of ['server.js', 'stdio:', 'stdio:node a.js | tee log', 'https://user:pw@host/mcp', 'ftp://host'])
      expect(() => parseTargetSpec(bad), bad).toThrow(TargetSpecInvalid);
  });
});
