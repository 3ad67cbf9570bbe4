import { describe, expect, it } from 'vitest';
import { contextAt, validatedContext } from '../../src/kernel/index.js';
import { prepareContext } from '../../src/kernel/internals.js';
import { MINUTE, T0, context, instant } from './support/world.js';

describe('prepareContext: the enabled namespaces', () => {
  it('two new contexts naming the same namespaces share one set; another list gets its own', () => {
    const first = prepareContext(context({ turn: 'a', enabled: ['docs', 'notion'] }));
    const same = prepareContext(context({ turn: 'b', enabled: ['docs', 'notion'] }));
    expect(same).not.toBe(first);
    expect(same.enabledNamespaces).toBe(first.enabledNamespaces);

    const other = prepareContext(context({ turn: 'c', enabled: ['files'] }));
    expect(other.enabledNamespaces).not.toBe(first.enabledNamespaces);
    expect(['docs', 'notion', 'files'].map((namespace) => other.enabledNamespaces.has(namespace))).toEqual([
      false,
      false,
      true,
    ]);

    // Back to the first list after another: answered by the list it names, not by the set made last.
    const back = prepareContext(context({ turn: 'd', enabled: ['docs', 'notion'] }));
    expect(['docs', 'notion', 'files'].map((namespace) => back.enabledNamespaces.has(namespace))).toEqual([
      true,
      true,
      false,
    ]);
    expect(['docs', 'notion', 'files'].map((namespace) => first.enabledNamespaces.has(namespace))).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('a list that only shares a prefix, or none at all, is not answered from the last set', () => {
    prepareContext(context({ turn: 'e', enabled: ['docs', 'notion'] }));
    const longer = prepareContext(context({ turn: 'f', enabled: ['docs', 'notion', 'files'] }));
    expect(longer.enabledNamespaces.has('files')).toBe(true);
    const none = prepareContext(context({ turn: 'g', enabled: [] }));
    expect(['docs', 'notion', 'files'].some((namespace) => none.enabledNamespaces.has(namespace))).toBe(false);
  });
});

describe("validatedContext: the kernel's own copy of a context", () => {
  it('is a copy frozen all the way down, answered as the host object it was made from', () => {
    const host = context({ turn: 'v1' });
    const copy = validatedContext(host)!;
    expect(copy).not.toBe(host);
    expect(copy).toEqual(host);
    expect([copy, copy.actor, copy.authority, copy.owner, copy.enabledToolNamespaces].every(Object.isFrozen)).toBe(
      true,
    );
    expect(prepareContext(copy)).toBe(prepareContext(host));
    expect(validatedContext(host)).toBe(copy);
  });

  it('stays what it was when the host edits its own object afterwards', () => {
    const host = context({ turn: 'v2', enabled: ['docs'] });
    const copy = validatedContext(host)!;
    const before = prepareContext(copy);
    host.enabledToolNamespaces.push('notion');
    const edited = prepareContext(host);
    expect(edited).not.toBe(before);
    expect(edited.enabledNamespaces.has('notion')).toBe(true);
    expect(prepareContext(copy)).toBe(before);
    expect(prepareContext(copy).enabledNamespaces.has('notion')).toBe(false);
  });

  it('is undefined for what is not a context, a hostile one included, and the kernel refuses those as ever', () => {
    const hostile = Object.defineProperty(context({ turn: 'v3' }), 'purpose', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    for (const input of [undefined, null, 42, { ...context(), now: 'yesterday' }, hostile])
      expect(validatedContext(input)).toBeUndefined();
    expect(() => prepareContext({ ...context(), now: 'yesterday' })).toThrow(/AccessContext/);
  });
});

describe("contextAt: the kernel's copy at another instant", () => {
  it('is the same turn at the new instant, itself a frozen copy, answered without validating it again', () => {
    const held = validatedContext(context({ turn: 'c1' }))!;
    const later = contextAt(held, instant(MINUTE))!;
    expect(later).toEqual({ ...held, now: instant(MINUTE) });
    expect(Object.keys(later)).toEqual(Object.keys(held));
    expect(Object.isFrozen(later)).toBe(true);
    const [first, second] = [prepareContext(held), prepareContext(later)];
    expect(second.turnKey).toBe(first.turnKey);
    expect([first.nowMs, second.nowMs]).toEqual([T0, T0 + MINUTE]);
    expect(second.enabledNamespaces).toBe(first.enabledNamespaces);
    expect(prepareContext(later)).toBe(second);
    // Stamped from the later copy, or at the held instant: the copy asked for, not a new one.
    expect(contextAt(held, held.now)).toBe(held);
    expect(prepareContext(contextAt(later, instant(2 * MINUTE))!).nowMs).toBe(T0 + 2 * MINUTE);
  });

  it('is undefined for a host object, or for what is not an instant', () => {
    const host = context({ turn: 'c2' });
    prepareContext(host);
    expect(contextAt(host, instant(MINUTE))).toBeUndefined();
    const held = validatedContext(host)!;
    for (const now of ['yesterday', '', '2026-13-01T00:00:00Z', 42 as unknown as string])
      expect(contextAt(held, now)).toBeUndefined();
  });
});
