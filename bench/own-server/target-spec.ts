/**
 * What `--target` names: `stdio:<command…>` (a child process spoken to over
 * stdin/stdout) or an `http(s)://` URL (Streamable HTTP). A `{n}` in either is
 * the size placeholder of the tool-count curve.
 */
import { parse as parseShell } from 'shell-quote';

export type TargetSpec =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly text: string }
  | { readonly kind: 'http'; readonly url: string; readonly text: string };

export class TargetSpecInvalid extends Error {
  override readonly name = 'TargetSpecInvalid';
}

const SIZE_PLACEHOLDER = '{n}';

export function parseTargetSpec(text: string): TargetSpec {
  const trimmed = text.trim();
  if (trimmed.startsWith('stdio:')) {
    const words = parseShell(trimmed.slice('stdio:'.length));
    const args: string[] = [];
    for (const word of words) {
      // Operators (pipes, redirections, globs) would need a shell; a target is one command.
      if (typeof word !== 'string')
        throw new TargetSpecInvalid(
          `--target stdio: takes one command and its arguments, without shell operators ` +
            `(found ${JSON.stringify(word)})`,
        );
      args.push(word);
    }
    const [command, ...rest] = args;
    if (command === undefined) throw new TargetSpecInvalid('--target stdio: names no command');
    return { kind: 'stdio', command, args: rest, text: trimmed };
  }
  if (/^https?:\/\//i.test(trimmed)) {
    let url: URL;
    try {
      url = new URL(trimmed.replaceAll(SIZE_PLACEHOLDER, '0'));
    } catch {
      throw new TargetSpecInvalid(`--target is not a valid URL`);
    }
    if (url.username !== '' || url.password !== '')
      throw new TargetSpecInvalid(
        '--target URL carries credentials; put them in an identity (environment variable or headers file) instead',
      );
    return { kind: 'http', url: trimmed, text: trimmed };
  }
  throw new TargetSpecInvalid(`--target must be stdio:<command…> or an http(s) URL, got '${trimmed.slice(0, 80)}'`);
}

export function hasSizePlaceholder(spec: TargetSpec): boolean {
  return spec.text.includes(SIZE_PLACEHOLDER);
}

/** The spec with `{n}` replaced by a size. */
export function atSize(spec: TargetSpec, n: number): TargetSpec {
  const fill = (s: string): string => s.replaceAll(SIZE_PLACEHOLDER, String(n));
  if (spec.kind === 'stdio')
    return { kind: 'stdio', command: fill(spec.command), args: spec.args.map(fill), text: fill(spec.text) };
  return { kind: 'http', url: fill(spec.url), text: fill(spec.text) };
}
