/**
 * @felt/protocol — every message between Felt's clients and its server: schemas (validated at the
 * socket before any handler runs), opcodes and error codes. Runs unchanged in Node and the browser.
 */
export * as schema from './schema.js';
export type { Schema, Infer, ParseResult, SchemaIssue, ObjectSchema } from './schema.js';
export * from './codes.js';
export * from './messages.js';
export * from './views.js';
export * from './staff.js';
