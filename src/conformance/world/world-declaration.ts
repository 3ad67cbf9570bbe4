/**
 * The shape of a conformance world, as data. Everything a world is — its
 * namespace, clock, principals, grants and tools — is a plain JSON value, so
 * the world can be hashed (a report names what it judged), written to a file
 * and rebuilt identically in a child process that serves it over stdio.
 * Behaviour is chosen from a closed vocabulary rather than written as code,
 * which is what keeps the declaration hashable.
 */
import type { Address } from '../../kernel/index.js';

/** The argument shapes the world's tools accept (each a strict object: unknown members are refused). */
export type ArgumentShape = 'path' | 'path+query' | 'path+content' | 'path+to';

/**
 * How a tool behaves once the kernel lets it run.
 * - `ordinary`: asks for its action on the argument path, answers a small succeeded result.
 * - `escapes-ceiling`: asks for its action on the argument path even outside its declared ceiling.
 * - `malformed-result`: answers with a result that fails the ToolResult contract.
 * - `names-another-owner`: asks for a resource owned by the world's stranger.
 */
type ToolBehaviour = 'ordinary' | 'escapes-ceiling' | 'malformed-result' | 'names-another-owner';

export interface ToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly namespace: string;
  readonly action: string;
  readonly readWrite: 'read' | 'write';
  readonly arguments: ArgumentShape;
  /** The declared ceiling's path (its namespace and action are the tool's). */
  readonly ceilingPath: readonly string[];
  readonly behaviour: ToolBehaviour;
  readonly destructive?: boolean;
}

/** One grant of the actor, issued by the world's authority in the world's namespace. */
export interface GrantDeclaration {
  readonly id: string;
  readonly namespace: string;
  readonly path: readonly string[];
  readonly actions: readonly string[];
  readonly scope: 'exact' | 'descendants';
}

/** A ContextToolProvider of the world, contributing the declared tools. How it behaves is a condition's choice. */
export interface ProviderDeclaration {
  readonly id: string;
  readonly tools: readonly ToolDeclaration[];
}

export interface WorldDeclaration {
  /** Names the declaration; bump it when the world changes meaning. */
  readonly id: string;
  readonly namespaceId: string;
  /** The frozen clock's first instant. The clock advances only when a move says so. */
  readonly epoch: string;
  readonly principals: {
    readonly actor: Address;
    readonly authority: Address;
    readonly owner: Address;
    /** Someone the actor holds nothing over: the owner a cross-owner call names. */
    readonly stranger: Address;
  };
  readonly purpose: string;
  readonly enabledToolNamespaces: readonly string[];
  readonly grantIssuedAt: string;
  readonly grants: readonly GrantDeclaration[];
  readonly tools: readonly ToolDeclaration[];
  readonly providers: readonly ProviderDeclaration[];
}
