import { z } from 'zod';
import { IdSchema } from './primitives.js';

/** Who acts, who issued authority, who owns a resource: one tagged union for all four kinds of principal. */
export const AddressSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('human'), userId: IdSchema }),
  z.strictObject({ kind: z.literal('agent'), agentId: IdSchema }),
  z.strictObject({ kind: z.literal('group'), groupId: IdSchema }),
  z.strictObject({ kind: z.literal('service'), serviceId: IdSchema }),
]);
export type Address = z.infer<typeof AddressSchema>;

/**
 * A compact, unambiguous key for an address (`human:ada`). The kind prefix
 * keeps a user and a service that share an id apart; ids cannot contain the
 * separator's meaning because the kind is fixed-vocabulary and comes first.
 */
export function addressKey(address: Address): string {
  switch (address.kind) {
    case 'human':
      return `human:${address.userId}`;
    case 'agent':
      return `agent:${address.agentId}`;
    case 'group':
      return `group:${address.groupId}`;
    case 'service':
      return `service:${address.serviceId}`;
  }
}
