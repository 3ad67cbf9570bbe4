import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import type { JsonObject } from '../kernel/index.js';

// One validator instance: Ajv caches compiled schemas per instance, and the
// SDK client validates structured output with the same implementation, so
// arguments and outputs are judged by one reading of JSON Schema.
const validator = new AjvJsonSchemaValidator();

/**
 * A ToolHandler `parseArguments` for a tool that declares its arguments only
 * as a JSON Schema (a tool from a world file, or from an upstream MCP
 * server): arguments that do not match are refused before the tool runs.
 * Compiled once, when the tool is defined; a schema Ajv cannot compile is an
 * error at that point rather than at the first call.
 */
export function schemaArgumentParser(inputSchema: JsonObject): (args: JsonObject) => JsonObject {
  const validate = validator.getValidator<JsonObject>(inputSchema as JsonSchemaType);
  return (args) => {
    const result = validate(args);
    if (!result.valid) throw new TypeError(`arguments do not match the tool's input schema: ${result.errorMessage}`);
    return args;
  };
}
