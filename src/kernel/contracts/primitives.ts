import { z } from 'zod';

/** An opaque identifier: ids, trace ids, namespace ids. Bounded so a hostile id cannot bloat the audit trail. */
export const IdSchema = z.string().min(1).max(256);

/** An RFC 3339 instant with an explicit offset (`Z` or `+hh:mm`). */
export const InstantSchema = z.iso.datetime({ offset: true });

/** Any JSON value. Tool arguments, outputs and schemas are JSON and nothing else. */
export const JsonValueSchema = z.json();
export type JsonValue = z.infer<typeof JsonValueSchema>;

/** A JSON object (what MCP calls tool arguments and what a schema document is). */
export const JsonObjectSchema = z.record(z.string(), JsonValueSchema);
export type JsonObject = z.infer<typeof JsonObjectSchema>;
