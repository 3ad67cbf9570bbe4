/**
 * Is a tool's `inputSchema` a valid JSON Schema object schema? Checked with
 * ajv against the meta-schema the schema names (`$schema`: draft-07,
 * 2019-09, or 2020-12 — MCP's default when it names none), then compiled,
 * which also catches `$ref`s that resolve nowhere. MCP requires an input
 * schema to describe an object, so `type` must be `"object"`.
 */
import { createRequire } from 'node:module';
import type { Ajv as AjvCore } from 'ajv';
import type { StructuredCheck } from './target-report-schema.js';

const require = createRequire(import.meta.url);
type AjvClass = new (options: Record<string, unknown>) => AjvCore;
const Ajv07 = require('ajv') as { default: AjvClass };
const Ajv2019 = require('ajv/dist/2019') as { default: AjvClass };
const Ajv2020 = require('ajv/dist/2020') as { default: AjvClass };

export interface SchemaProblem {
  readonly tool: string;
  readonly problem: string;
}

const DRAFT_07 = /draft-0[67]\/schema/;
const DRAFT_2019 = /2019-09\/schema/;

// Not strict: unknown keywords (`x-…`, vendor annotations) are legal JSON Schema, only unusual.
const options = { strict: false, allErrors: true, validateFormats: false };
const validators = {
  d7: new Ajv07.default(options),
  d2019: new Ajv2019.default(options),
  d2020: new Ajv2020.default(options),
};

function validatorFor(schema: Record<string, unknown>): AjvCore {
  const declared = typeof schema['$schema'] === 'string' ? schema['$schema'] : '';
  if (DRAFT_07.test(declared)) return validators.d7;
  if (DRAFT_2019.test(declared)) return validators.d2019;
  return validators.d2020;
}

/** The problem with one tool's input schema, or undefined when it is a valid object schema. */
function inputSchemaProblem(schema: unknown): string | undefined {
  if (schema === undefined) return 'no inputSchema';
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return 'inputSchema is not a JSON object';
  const record = schema as Record<string, unknown>;
  if (record['type'] !== 'object')
    return `inputSchema.type is ${JSON.stringify(record['type']) ?? 'absent'}, not "object"`;
  const ajv = validatorFor(record);
  if (!ajv.validateSchema(record))
    return `not a valid JSON Schema: ${
      ajv.errors?.[0] === undefined ? 'rejected by the meta-schema' : firstError(ajv, ajv.errors)
    }`;
  try {
    ajv.compile(record);
    // Compiled schemas are cached by content; drop them so a long run does not grow the cache.
    ajv.removeSchema(record);
  } catch (error) {
    return `does not compile: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  return undefined;
}

export function schemaProblems(tools: readonly Record<string, unknown>[]): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const tool of tools) {
    const problem = inputSchemaProblem(tool['inputSchema']);
    if (problem !== undefined)
      problems.push({ tool: typeof tool['name'] === 'string' ? tool['name'] : '(unnamed)', problem });
  }
  return problems;
}

function firstError(ajv: AjvCore, errors: typeof ajv.errors): string {
  const first = errors?.[0];
  return first === undefined ? 'rejected' : `${first.instancePath || '(root)'} ${first.message ?? ''}`.trim();
}

/**
 * Why `value` does not satisfy `schema` (a valid schema), or undefined when it does; a schema that does not compile is
 * the problem.
 */
export function valueProblem(schema: Record<string, unknown>, value: unknown): string | undefined {
  const ajv = validatorFor(schema);
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    return `the schema does not compile: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  const ok = validate(value);
  const problem = ok ? undefined : firstError(ajv, validate.errors);
  ajv.removeSchema(schema);
  return problem;
}

/**
 * A tool result judged against the tool's `outputSchema`: its
 * `structuredContent` valid or not, missing although the tool declares a
 * schema, or no schema to judge by. A refusal (`isError`) carries no
 * structured result by design and is not checked.
 */
export function structuredContentCheck(
  tool: Record<string, unknown> | undefined,
  result: Record<string, unknown> | undefined,
): StructuredCheck {
  if (result === undefined || result['isError'] === true) return { verdict: 'not_checked' };
  const schema = tool?.['outputSchema'];
  if (schema === undefined) return { verdict: 'no_schema' };
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return { verdict: 'invalid', problem: 'the outputSchema is not a JSON object' };
  if (!('structuredContent' in result))
    return {
      verdict: 'missing',
      problem: 'the tool declares an outputSchema, and its result carries no structuredContent',
    };
  const problem = valueProblem(schema as Record<string, unknown>, result['structuredContent']);
  return problem === undefined ? { verdict: 'valid' } : { verdict: 'invalid', problem: `structuredContent ${problem}` };
}
