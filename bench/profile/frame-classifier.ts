/**
 * Which frames of a profile are the work ADR 0026 removed from the hot path:
 * registering tool entries, i.e. validating a definition (zod), cloning it
 * (JSON round trip) and deep-freezing it. The classifier is explicit so the
 * summary's verdict can be checked against a rule rather than an impression.
 *
 * Classes, by the frame's own identity:
 * - `registration`: the registry's entry points — `registerEntry` and
 *   `register` in `src/kernel/registry/tool-registry.ts`;
 * - `validation`: schema validation — any frame in the `zod` package, and the
 *   kernel's own `parseContract` wrapper around it;
 * - `json-clone`: V8's `JSON.parse` / `JSON.stringify` builtins (`parse` /
 *   `stringify` with no script). V8's sampler usually folds builtin time
 *   into the caller, so most JSON-clone time shows as `registerEntry`'s own;
 * - `freeze`: `deepFreeze` in `src/kernel/registry/deep-freeze.ts`. It is not
 *   a registration frame by itself: the audit trail freezes every event with
 *   it and `invokeTool` every parsed call, in every strategy;
 * - `runtime`: V8's pseudo-frames (`(garbage collector)`, `(program)`,
 *   `(idle)`, `(root)`) and Node's internals (`node:` URLs);
 * - `kernel`: any other frame under `src/kernel/`;
 * - `other`: everything else (the workload driver, tsx, other packages).
 * Any other frame with no script takes the class of its nearest caller that
 * has one: code made at run time with `new Function` (how zod compiles its
 * object parsers), and native builtins and bindings the sampler names
 * (`set`, `freeze`, a RegExp) — their time is their caller's work.
 *
 * Validation, cloning and freezing all also happen outside registration
 * (every call's arguments are parsed and frozen, every audit event frozen),
 * and only registration's share is catalogue cost. So besides the frame's
 * class, each sample is attributed by its stack: a sample is on a
 * **registration stack** when a `registration` frame is on its stack (itself
 * or a caller), and on a **kernel stack** when any `src/kernel/` frame is.
 * "Registration/validation work" in the summary means registration-stack
 * time: the validating, cloning and freezing done while registering.
 */
import type { CallFrame, CpuProfile } from './cpuprofile.js';
import { V8_PSEUDO_FRAMES, parentsOf } from './cpuprofile.js';

export const FRAME_CLASSES = [
  'registration',
  'validation',
  'json-clone',
  'freeze',
  'kernel',
  'runtime',
  'other',
] as const;
export type FrameClass = (typeof FRAME_CLASSES)[number];

const KERNEL_FRAMES: readonly {
  readonly file: string;
  readonly functions: ReadonlySet<string>;
  readonly frameClass: FrameClass;
}[] = [
  {
    file: '/src/kernel/registry/tool-registry.ts',
    functions: new Set(['registerEntry', 'register']),
    frameClass: 'registration',
  },
  { file: '/src/kernel/registry/deep-freeze.ts', functions: new Set(['deepFreeze']), frameClass: 'freeze' },
];

const VALIDATION_KERNEL_FUNCTIONS: ReadonlySet<string> = new Set(['parseContract']);

function isZodUrl(url: string): boolean {
  return /[/\\]node_modules[/\\]zod[/\\]/.test(url);
}

function isKernelUrl(url: string): boolean {
  return /[/\\]src[/\\]kernel[/\\]/.test(url.replace(/\\/g, '/'));
}

function isJsonBuiltin(frame: CallFrame): boolean {
  return (
    frame.url === '' &&
    (frame.functionName === 'parse' || frame.functionName === 'stringify') &&
    Number(frame.scriptId) === 0
  );
}

/**
 * The class of a frame by its own identity. Returns `undefined` for a frame
 * with no script that is neither a V8 pseudo-frame nor a JSON builtin: its
 * class is its caller's (see `classifyNodes`).
 */
export function classifyFrame(frame: CallFrame): FrameClass | undefined {
  const { url, functionName } = frame;
  if (V8_PSEUDO_FRAMES.has(functionName) && url === '') return 'runtime';
  if (isJsonBuiltin(frame)) return 'json-clone';
  if (url === '') return undefined;
  if (url.startsWith('node:')) return 'runtime';
  if (isZodUrl(url)) return 'validation';
  const normalized = url.replace(/\\/g, '/');
  for (const { file, functions, frameClass } of KERNEL_FRAMES) {
    if (normalized.endsWith(file) && functions.has(functionName)) return frameClass;
  }
  if (isKernelUrl(normalized)) return VALIDATION_KERNEL_FUNCTIONS.has(functionName) ? 'validation' : 'kernel';
  return 'other';
}

export interface NodeClassification {
  /** The frame's class (run-time-made code resolved to its caller's). */
  readonly frameClass: FrameClass;
  /** A registration frame is this node or one of its callers. */
  readonly onRegistrationStack: boolean;
  /** A kernel frame (`src/kernel/`) is this node or one of its callers. */
  readonly onKernelStack: boolean;
}

/** Classifies every node of the call tree, walking from the root so each node sees its callers' answers. */
export function classifyNodes(profile: CpuProfile): Map<number, NodeClassification> {
  const parents = parentsOf(profile);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const out = new Map<number, NodeClassification>();
  const resolve = (id: number): NodeClassification => {
    const known = out.get(id);
    if (known !== undefined) return known;
    // Iterate up to the nearest classified ancestor, then fill back down: call trees can be deep.
    const chain: number[] = [];
    let cursor: number | undefined = id;
    while (cursor !== undefined && !out.has(cursor)) {
      chain.push(cursor);
      cursor = parents.get(cursor);
    }
    let above: NodeClassification | undefined = cursor === undefined ? undefined : out.get(cursor);
    for (let i = chain.length - 1; i >= 0; i--) {
      const node = byId.get(chain[i]!)!;
      const own = classifyFrame(node.callFrame);
      const frameClass = own ?? above?.frameClass ?? 'other';
      const classification: NodeClassification = {
        frameClass,
        onRegistrationStack: frameClass === 'registration' || (above?.onRegistrationStack ?? false),
        onKernelStack:
          frameClass === 'registration' || isKernelUrl(node.callFrame.url) || (above?.onKernelStack ?? false),
      };
      out.set(node.id, classification);
      above = classification;
    }
    return out.get(id)!;
  };
  for (const node of profile.nodes) resolve(node.id);
  return out;
}
