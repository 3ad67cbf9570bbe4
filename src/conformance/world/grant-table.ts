import type { AccessContext, Grant, GrantSource } from '../../kernel/index.js';
import type { GrantSourceBehaviour } from '../conditions.js';

/**
 * The host's grant table for one world, behind the kernel's GrantSource port.
 * Revoking is the host writing to its own table (trusted setup); the kernel
 * sees it when it next loads authority, i.e. at the next turn.
 */
export class WorldGrantTable implements GrantSource {
  readonly #grants: Grant[];

  constructor(
    grants: readonly Grant[],
    private readonly behaviour: GrantSourceBehaviour,
  ) {
    this.#grants = grants.map((g) => structuredClone(g));
  }

  revoke(grantId: string, at: string): void {
    const index = this.#grants.findIndex((g) => g.id === grantId);
    if (index < 0) throw new RangeError(`no grant '${grantId}' to revoke`);
    this.#grants[index] = { ...this.#grants[index]!, revokedAt: at };
  }

  async load(context: AccessContext): Promise<unknown> {
    switch (this.behaviour) {
      case 'throws':
        throw new Error('the grant store is unreachable');
      case 'answers-garbage':
        return { grants: 'not a list' };
      case 'answers-for-another-namespace':
        return [
          ...this.#grants.map((g) => structuredClone(g)),
          { ...structuredClone(this.#grants[0]!), id: 'g-foreign', namespaceId: `${context.namespaceId}-other-tenant` },
        ];
      case 'steady':
        return this.#grants.map((g) => structuredClone(g));
    }
  }
}
