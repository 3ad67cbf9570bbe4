/**
 * How large a catalogue the kernel will take in. A provider is host-side
 * code talking to a user's own servers; a runaway one (a gateway listing
 * every tool it fronts, a schema pasted in whole) must be refused by name
 * before its answer costs the kernel more than a fixed multiple of what the
 * provider itself already holds.
 *
 * The figures: the scale sweep runs to 10,000 provider tools; MCP clients
 * in the field refuse past 128; the reference world's largest definition
 * serialises to about 600 characters.
 */
export const CATALOGUE_LIMITS = Object.freeze({
  /** Tools in one effective registry, static and provided together. */
  maxTools: 16_384,
  /** Characters of one definition's JSON text. */
  maxDefinitionChars: 1_048_576,
  /** Characters of JSON text across every provided definition of one derivation. */
  maxCatalogueChars: 33_554_432,
});

/**
 * Why a derivation refused a provider's answer. Appears first in the refusal's cause, so audit readers can group by it.
 */
export type CatalogueRefusalReason =
  | 'provider_failed'
  | 'not_a_list'
  | 'too_many_tools'
  | 'definition_too_large'
  | 'catalogue_too_large'
  | 'duplicate_name'
  | 'invalid_definition'
  | 'invalid_handler'
  | 'invalid_revision';

/** A definition whose JSON text passes `maxDefinitionChars`. */
export class DefinitionTooLarge extends Error {
  override readonly name = 'DefinitionTooLarge';
  readonly code = 'definition_too_large';
  constructor(
    readonly toolName: string,
    readonly chars: number,
  ) {
    super(`definition '${toolName}' serialises to ${chars} characters (limit ${CATALOGUE_LIMITS.maxDefinitionChars})`);
  }
}

/** A definition that is not JSON at all (a cycle, a BigInt, a throwing getter, nothing). */
export class DefinitionNotJson extends Error {
  override readonly name = 'DefinitionNotJson';
  readonly code = 'invalid_definition';
}
