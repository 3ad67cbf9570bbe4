/**
 * `costlab.config.json`: which server to measure, which tools to call with
 * which arguments, and as whom. Validated with zod at the boundary; a bad
 * file is refused with a ContractViolation naming every offending field.
 *
 * Credentials are never literal in the file: an identity names environment
 * variables (`{ "fromEnv": "ALICE_TOKEN", "prefix": "Bearer " }`) or a
 * headers file (a JSON object of header → value, kept out of the repository).
 * Resolving them registers each value with the run's Redactor.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseContract } from '../../src/kernel/index.js';
import { Redactor } from './secrets.js';

const NameSchema = z.string().min(1).max(128);

/** A credential: the environment variable that holds it, and an optional prefix (e.g. `Bearer `). */
const SecretRefSchema = z.strictObject({
  fromEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'),
  prefix: z.string().max(64).optional(),
});

/** Glob-ish tool name pattern: `*` matches any run of characters. */
const ToolPatternSchema = z.string().min(1).max(256);

const IdentityConfigSchema = z.strictObject({
  name: NameSchema,
  /** HTTP targets: request headers, each from an environment variable. */
  headers: z.record(z.string().min(1).max(256), SecretRefSchema).optional(),
  /** HTTP targets: a JSON file of header → value, read at run time. */
  headersFile: z.string().min(1).optional(),
  /** stdio targets: environment variables given to the child, each from one of ours. */
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), SecretRefSchema).optional(),
  /** Tools only this identity may be shown: a listing of another identity holding one is a leak. */
  exclusive: z.array(ToolPatternSchema).max(1024).default([]),
});

const ToolCallConfigSchema = z.strictObject({
  tool: NameSchema,
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** Which identity makes the call; default the first. */
  identity: NameSchema.optional(),
});

export const TargetConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    /** `stdio:<command…>` or an http(s) URL; `--target` on the command line overrides it. */
    target: z.string().min(1).optional(),
    calls: z.array(ToolCallConfigSchema).max(256).default([]),
    identities: z.array(IdentityConfigSchema).max(16).default([]),
    /** Sizes the `{n}` placeholder takes for the tool-count curve. */
    sizes: z.array(z.number().int().min(0).max(100_000)).max(32).default([]),
    /** Measured repetitions (warm) and fresh processes/connections (cold). */
    samples: z.number().int().min(1).max(100_000).default(30),
    warmup: z.number().int().min(0).max(100_000).default(5),
    coldRuns: z.number().int().min(1).max(1000).default(5),
    /** Per-request timeout; initialize gets the same. */
    timeoutMs: z.number().int().min(100).max(600_000).default(10_000),
    /**
     * What the target may send (bench/own-server/target-limits.ts); past each, a named failure. One `tools/list`
     * answer, all pages.
     */
    maxListingBytes: z
      .number()
      .int()
      .min(1024)
      .max(512 * 1024 * 1024)
      .default(4 * 1024 * 1024),
    /** Any other frame: a tools/call result, a notification. */
    maxResultBytes: z
      .number()
      .int()
      .min(1024)
      .max(512 * 1024 * 1024)
      .default(8 * 1024 * 1024),
    maxNotificationsPerSecond: z.number().int().min(1).max(1_000_000).default(1000),
    /** Notifications kept as evidence; later ones are counted and dropped. */
    maxRetainedNotifications: z.number().int().min(0).max(1_000_000).default(1000),
    maxFramesPerRequest: z.number().int().min(1).max(1_000_000).default(1000),
    /** Repeated `tools/list` calls for the consistency rows. */
    listRepeats: z.number().int().min(2).max(1000).default(5),
    /** Tokens of tool definitions a client may spend (listing-footprint.ts: default 10% of a 128k-token context). */
    tokenBudget: z.number().int().min(1).max(10_000_000).default(12_800),
  })
  .superRefine((config, ctx) => {
    const names = new Set<string>();
    config.identities.forEach((identity, i) => {
      if (names.has(identity.name))
        ctx.addIssue({
          code: 'custom',
          path: ['identities', i, 'name'],
          message: `duplicate identity '${identity.name}'`,
        });
      names.add(identity.name);
    });
    config.calls.forEach((call, i) => {
      if (call.identity !== undefined && !names.has(call.identity))
        ctx.addIssue({ code: 'custom', path: ['calls', i, 'identity'], message: `names no identity of the config` });
    });
  });
export type TargetConfig = z.infer<typeof TargetConfigSchema>;

export const DEFAULT_TARGET_CONFIG: TargetConfig = TargetConfigSchema.parse({});

class TargetConfigUnreadable extends Error {
  override readonly name = 'TargetConfigUnreadable';
}

export class CredentialMissing extends Error {
  override readonly name = 'CredentialMissing';
}

/** Reads and validates a config file; throws TargetConfigUnreadable or a ContractViolation naming each bad field. */
export async function loadTargetConfig(file: string): Promise<TargetConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new TargetConfigUnreadable(
      `${file} is not readable JSON: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
  return parseTargetConfig(raw, path.dirname(path.resolve(file)), file);
}

/**
 * Validates a config value; relative `headersFile` paths resolve against `baseDir`; a refusal names `source` (the file
 * it came from).
 */
export function parseTargetConfig(raw: unknown, baseDir = process.cwd(), source = 'costlab.config.json'): TargetConfig {
  const config = parseContract(source, TargetConfigSchema, raw);
  return {
    ...config,
    identities: config.identities.map((identity) =>
      identity.headersFile === undefined
        ? identity
        : { ...identity, headersFile: path.resolve(baseDir, identity.headersFile) },
    ),
  };
}

/** An identity with its credentials in hand. */
export interface ResolvedIdentity {
  readonly name: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string>>;
  readonly exclusive: readonly string[];
}

/** The identity a run uses when the config names none: no credentials, nothing exclusive. */
export const ANONYMOUS: ResolvedIdentity = { name: 'default', headers: {}, env: {}, exclusive: [] };

const HeadersFileSchema = z.record(z.string().min(1), z.string());

/**
 * Reads every identity's credentials, registering each value with `redactor`.
 * A missing variable or unreadable headers file is a CredentialMissing that
 * names the variable or file, never a value.
 */
export async function resolveIdentities(
  config: TargetConfig,
  redactor: Redactor,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedIdentity[]> {
  if (config.identities.length === 0) return [ANONYMOUS];
  const out: ResolvedIdentity[] = [];
  for (const identity of config.identities) {
    const secret = (ref: { fromEnv: string; prefix?: string | undefined }, what: string): string => {
      const value = env[ref.fromEnv];
      if (value === undefined || value === '')
        throw new CredentialMissing(
          `identity '${identity.name}' ${what} needs environment variable ${ref.fromEnv}, which is not set`,
        );
      redactor.add(value);
      return `${ref.prefix ?? ''}${value}`;
    };
    const headers: Record<string, string> = {};
    if (identity.headersFile !== undefined) {
      let parsed: Record<string, string>;
      try {
        parsed = HeadersFileSchema.parse(JSON.parse(await readFile(identity.headersFile, 'utf8')));
      } catch {
        // The file's content is a secret: say which file, not what was in it.
        throw new CredentialMissing(
          `identity '${identity.name}' headersFile ${identity.headersFile} is not a readable JSON object of ` +
            `header names to string values`,
        );
      }
      for (const [name, value] of Object.entries(parsed)) {
        redactor.add(value);
        headers[name] = value;
      }
    }
    for (const [name, ref] of Object.entries(identity.headers ?? {})) headers[name] = secret(ref, `header '${name}'`);
    const childEnv: Record<string, string> = {};
    for (const [name, ref] of Object.entries(identity.env ?? {})) childEnv[name] = secret(ref, `env '${name}'`);
    out.push({ name: identity.name, headers, env: childEnv, exclusive: identity.exclusive });
  }
  return out;
}

/** Whether `name` matches a pattern where `*` stands for any run of characters. */
export function matchesToolPattern(name: string, pattern: string): boolean {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(name);
}
