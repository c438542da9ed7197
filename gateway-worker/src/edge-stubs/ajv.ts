/**
 * Stands in for `ajv` in the worker bundle (wrangler.toml [alias]). The MCP SDK's client
 * imports Ajv for tool output-schema validation, which the gateway turns off (it passes
 * results through untouched, and Ajv's code generation is not allowed in workerd), so Ajv is
 * never constructed on the edge: this keeps a JSON-schema compiler (≈ 280 KB) out of every
 * cold isolate. Constructing it anyway is a bug, and says so.
 */
export default class Ajv {
  constructor() {
    throw new Error('ajv is not bundled into the gateway worker: pass a jsonSchemaValidator instead');
  }
}
