import { z } from 'zod';
import { AddressSchema } from './address.js';
import { IdSchema, InstantSchema } from './primitives.js';
import { CapabilitySchema } from './resource.js';

export const GrantConstraintsSchema = z.strictObject({
  purposes: z.array(z.string().min(1).max(512)).max(64).optional(),
  notBefore: InstantSchema.optional(),
  expiresAt: InstantSchema.optional(),
  maxUses: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});

export const GrantSchema = z.strictObject({
  id: IdSchema,
  namespaceId: IdSchema,
  subject: AddressSchema,
  issuer: AddressSchema,
  capabilities: z.array(CapabilitySchema).min(1).max(64),
  constraints: GrantConstraintsSchema,
  issuedAt: InstantSchema,
  revokedAt: InstantSchema.optional(),
});
export type Grant = z.infer<typeof GrantSchema>;

/** The most grants one authority may carry; more is refused as `grant_limit_exceeded`. */
export const MAX_GRANTS = 256;
