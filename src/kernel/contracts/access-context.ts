import { z } from 'zod';
import { AddressSchema } from './address.js';
import { IdSchema, InstantSchema } from './primitives.js';

/**
 * The host-made, trusted description of one operation. It is strict: it
 * carries no grants (authority enters only through the GrantSource), so a
 * context with a `grants` field is refused rather than silently trimmed.
 */
export const AccessContextSchema = z.strictObject({
  namespaceId: IdSchema,
  actor: AddressSchema,
  authority: AddressSchema,
  owner: AddressSchema,
  purpose: z.string().min(1).max(512),
  traceId: IdSchema,
  turnId: IdSchema.optional(),
  enabledToolNamespaces: z
    .array(IdSchema)
    .max(256)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'namespace ids must be unique' }),
  now: InstantSchema,
});
export type AccessContext = z.infer<typeof AccessContextSchema>;
