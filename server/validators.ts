import { Ajv } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * The ajv each part of a request is checked with. Fastify's baseline (Fastify 5 docs,
 * Reference/Validation-and-Serialization.md, "Validator Compiler") coerces types and removes
 * undeclared properties in every part; the same document shows one validator per part ("A custom
 * schema validator can be specified for each parameter type (body, querystring, params, headers)").
 * A JSON body carries its own types, so it gets neither: `"true"` or `1` is no boolean, and a key
 * the schema does not declare is refused by name instead of dropped. A path or a query string is
 * text only, so numbers are still read from it as the baseline does.
 */
const baseline = { useDefaults: true, addUsedSchema: false, allErrors: false } as const;
const bodies = new Ajv({ ...baseline, coerceTypes: false, removeAdditional: false });
const urlParts = new Ajv({ ...baseline, coerceTypes: 'array', removeAdditional: true });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodies : urlParts).compile(schema);
