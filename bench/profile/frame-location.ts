/**
 * How a frame is named in a summary: its function, and where it is —
 * `src/kernel/registry/tool-registry.ts:41` for the repo's own code (mapped
 * back through tsx's source maps), `node_modules/zod/v4/core/schemas.js:1723`
 * for a package, `node:internal/…:663` for Node itself, and a label for
 * frames that have no script. Paths are relative to the repository so a
 * summary reads the same on every machine.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { CallFrame } from './cpuprofile.js';
import { V8_PSEUDO_FRAMES } from './cpuprofile.js';
import type { PositionMapper } from './source-map-sidecar.js';

export interface FrameName {
  readonly functionName: string;
  /** `file:line` (1-based line), or a label: `(v8)`, `(native)`, `(generated code)`. */
  readonly location: string;
}

function displayPath(url: string, repoRoot: string | undefined): string {
  if (!url.startsWith('file:')) return url;
  let file: string;
  try {
    file = fileURLToPath(url);
  } catch {
    return url;
  }
  if (repoRoot === undefined) return file.split(path.sep).join('/');
  const relative = path.relative(repoRoot, file);
  return (relative.startsWith('..') || path.isAbsolute(relative) ? file : relative).split(path.sep).join('/');
}

export function nameFrame(frame: CallFrame, mapPosition: PositionMapper, repoRoot?: string): FrameName {
  const functionName = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  if (frame.url === '') {
    if (V8_PSEUDO_FRAMES.has(frame.functionName)) return { functionName, location: '(v8)' };
    return { functionName, location: Number(frame.scriptId) === 0 ? '(native)' : '(generated code)' };
  }
  const mapped = mapPosition(frame.url, frame.lineNumber, frame.columnNumber);
  const line = (mapped?.line ?? frame.lineNumber) + 1;
  return { functionName, location: `${displayPath(frame.url, repoRoot)}:${line}` };
}
