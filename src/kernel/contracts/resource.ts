import { z } from 'zod';
import { AddressSchema } from './address.js';
import { IdSchema } from './primitives.js';

/**
 * One path segment. Separators, dot segments and control characters are
 * refused so that a segment list has exactly one reading: `['a/b']` cannot
 * pose as `['a','b']`, and `'..'` cannot climb out of a granted subtree.
 */
export const PathSegmentSchema = z
  .string()
  .min(1)
  .max(256)
  .refine((s) => s !== '.' && s !== '..', { message: "dot segments ('.', '..') are not allowed" })
  .refine((s) => !/[/\\]/.test(s), { message: 'path separators are not allowed in a segment' })
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: 'control characters are not allowed' });

const ResourceRefSchema = z.strictObject({
  namespace: IdSchema,
  path: z.array(PathSegmentSchema).max(64),
  owner: AddressSchema.optional(),
});

export const ActionSchema = z.string().min(1).max(128);

export const CapabilitySchema = z.strictObject({
  resource: ResourceRefSchema,
  actions: z.array(ActionSchema).min(1).max(64),
  scope: z.enum(['exact', 'descendants']),
});

/**
 * What one call needs. Emptiness is not refused here: an empty action or
 * namespace is an authorization outcome (`invalid_request`), not a parse
 * failure, so the authorizer can answer it in the shared vocabulary.
 */
export const RequirementSchema = z.strictObject({
  resource: z.strictObject({
    namespace: z.string().max(256),
    path: z.array(PathSegmentSchema).max(64),
    owner: AddressSchema.optional(),
  }),
  action: z.string().max(128),
});
export type Requirement = z.infer<typeof RequirementSchema>;
