import { describe, expect, it } from 'vitest';
import { classifyFrame, classifyNodes } from '../../bench/profile/frame-classifier.js';
import { ProfileBuilder, frame, pseudo, url } from './synthetic-profile.js';

const at = (functionName: string, file: string, scriptId = '1') => ({
  functionName,
  url: file === '' ? '' : url(file),
  lineNumber: 0,
  columnNumber: 0,
  scriptId,
});

describe('classifyFrame', () => {
  it('names the kernel registry functions that register an entry', () => {
    expect(classifyFrame(at('registerEntry', 'src/kernel/registry/tool-registry.ts'))).toBe('registration');
    expect(classifyFrame(at('register', 'src/kernel/registry/tool-registry.ts'))).toBe('registration');
  });

  it('classes deepFreeze apart: the audit trail and every parsed call use it too', () => {
    expect(classifyFrame(at('deepFreeze', 'src/kernel/registry/deep-freeze.ts'))).toBe('freeze');
  });

  it('does not take a same-named function elsewhere for registration', () => {
    expect(classifyFrame(at('register', 'src/kernel/operations/list-tools.ts'))).toBe('kernel');
    expect(classifyFrame(at('copy', 'src/kernel/registry/tool-registry.ts'))).toBe('kernel');
    expect(classifyFrame(at('register', 'node_modules/tsx/dist/esm/index.mjs'))).toBe('other');
  });

  it('classes zod and the kernel’s parseContract as validation', () => {
    expect(classifyFrame(at('inst._zod.parse', 'node_modules/zod/v4/core/schemas.js'))).toBe('validation');
    expect(classifyFrame(at('safeParse', 'node_modules/zod/v4/classic/schemas.js'))).toBe('validation');
    expect(classifyFrame(at('parseContract', 'src/kernel/contracts/contract-violation.ts'))).toBe('validation');
  });

  it('classes V8 JSON builtins as the JSON clone', () => {
    expect(classifyFrame(at('stringify', '', '0'))).toBe('json-clone');
    expect(classifyFrame(at('parse', '', '0'))).toBe('json-clone');
  });

  it('classes V8 pseudo-frames and Node internals as runtime', () => {
    for (const name of ['(garbage collector)', '(program)', '(idle)', '(root)'])
      expect(classifyFrame(pseudo(name) as never)).toBe('runtime');
    expect(classifyFrame({ ...at('makeSyncRequest', ''), url: 'node:internal/modules/esm/hooks' })).toBe('runtime');
  });

  it('leaves frames without a script to their caller', () => {
    expect(classifyFrame(at('', '', '326'))).toBeUndefined();
    expect(classifyFrame(at('set natives', '', '0'))).toBeUndefined();
  });

  it('classes other kernel code as kernel and the rest as other', () => {
    expect(classifyFrame(at('authorize', 'src/kernel/authority/authorize.ts'))).toBe('kernel');
    expect(classifyFrame(at('driveProfileTurn', 'bench/profile/profile-turn.ts'))).toBe('other');
  });
});

describe('classifyNodes', () => {
  const builder = new ProfileBuilder()
    .node('driver', 'root', frame('driveProfileTurn', 'bench/profile/profile-turn.ts'))
    .node('invoke', 'driver', frame('invokeTool', 'src/kernel/operations/invoke-tool.ts'))
    .node('zod-args', 'invoke', frame('inst._zod.parse', 'node_modules/zod/v4/core/schemas.js'))
    .node('jit-args', 'zod-args', { functionName: '', url: '', scriptId: '400', lineNumber: 2, columnNumber: 16 })
    .node('register', 'invoke', frame('registerEntry', 'src/kernel/registry/tool-registry.ts'))
    .node('freeze-native', 'register', {
      functionName: 'freeze',
      url: '',
      scriptId: '0',
      lineNumber: -1,
      columnNumber: -1,
    })
    .node('zod-def', 'register', frame('inst._zod.parse', 'node_modules/zod/v4/core/schemas.js'))
    .node('gc', 'root', pseudo('(garbage collector)'))
    .node('freeze-def', 'register', frame('deepFreeze', 'src/kernel/registry/deep-freeze.ts'))
    .node('audit', 'invoke', frame('event', 'src/kernel/audit/audit-trail.ts'))
    .node('freeze-event', 'audit', frame('deepFreeze', 'src/kernel/registry/deep-freeze.ts'));
  const profile = builder.sample('driver', 1).build();
  const classes = classifyNodes(profile);
  const of = (index: number) => classes.get(profile.nodes[index]!.id)!;

  it('marks every node under a registration frame, and only those, as on a registration stack', () => {
    expect(of(5)).toEqual({ frameClass: 'registration', onRegistrationStack: true, onKernelStack: true });
    expect(of(7)).toEqual({ frameClass: 'validation', onRegistrationStack: true, onKernelStack: true });
    expect(of(3).onRegistrationStack).toBe(false);
  });

  it('gives script-less frames their caller’s class', () => {
    expect(of(4)).toEqual({ frameClass: 'validation', onRegistrationStack: false, onKernelStack: true });
    expect(of(6)).toEqual({ frameClass: 'registration', onRegistrationStack: true, onKernelStack: true });
  });

  it('counts deepFreeze as registration work only when it freezes a definition being registered', () => {
    expect(of(9)).toEqual({ frameClass: 'freeze', onRegistrationStack: true, onKernelStack: true });
    expect(of(11)).toEqual({ frameClass: 'freeze', onRegistrationStack: false, onKernelStack: true });
  });

  it('keeps the driver and the garbage collector off the kernel stack', () => {
    expect(of(1)).toEqual({ frameClass: 'other', onRegistrationStack: false, onKernelStack: false });
    expect(of(8)).toEqual({ frameClass: 'runtime', onRegistrationStack: false, onKernelStack: false });
  });
});
