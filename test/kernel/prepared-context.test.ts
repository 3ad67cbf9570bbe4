import { describe, expect, it } from 'vitest';
import { prepareContext } from '../../src/kernel/internals.js';
import { context } from './support/world.js';

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
