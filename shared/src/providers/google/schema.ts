import { isRecord, type JsonObject } from '../common/json';

/**
 * JSON Schema → Gemini `Schema` (an OpenAPI 3.0 subset), for tool parameters and
 * `responseSchema`. Gemini answers 400 to keywords outside its subset, so this keeps a fixed
 * list and rewrites the common constructs it can express:
 * - `$ref` into `$defs`/`definitions` is inlined (a cycle becomes a bare object);
 * - `type: [T, "null"]` and `anyOf: [S, {type: "null"}]` become `nullable: true`;
 * - `oneOf` becomes `anyOf`; `allOf` members are merged into the parent;
 * - `const: "x"` becomes `enum: ["x"]`; non-string enums are dropped (Gemini enums are strings);
 * - string `format` survives only as `enum`/`date-time`, numeric as `int32|int64|float|double`.
 * Everything else is dropped, notably `$schema`, `$id`, `$defs`, `definitions`, `$comment`,
 * `additionalProperties`, `patternProperties`, `unevaluatedProperties`, `propertyNames`,
 * `not`, `if`/`then`/`else`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`,
 * `uniqueItems`, `contains`, `prefixItems`, `examples`, `readOnly`, `writeOnly`, `deprecated`.
 */
const COPIED = [
  'title',
  'description',
  'nullable',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'example',
  'default',
  'propertyOrdering',
] as const;
const STRING_FORMATS = new Set(['enum', 'date-time']);
const NUMBER_FORMATS = new Set(['int32', 'int64', 'float', 'double']);

interface Context {
  definitions: JsonObject;
  /** `$ref`s being expanded on the current path, to cut cycles. */
  expanding: Set<string>;
}

export function toGeminiSchema(schema: JsonObject): JsonObject {
  const definitions = { ...asObject(schema.definitions), ...asObject(schema.$defs) };
  return convert(schema, { definitions, expanding: new Set() });
}

function convert(schema: JsonObject, ctx: Context): JsonObject {
  if (typeof schema.$ref === 'string') return convertRef(schema.$ref, schema, ctx);
  const out: JsonObject = {};
  for (const key of COPIED) if (schema[key] !== undefined) out[key] = schema[key];
  applyType(schema.type, out);
  applyEnum(schema, out);
  applyFormat(schema.format, out);
  if (isRecord(schema.properties)) {
    const properties: JsonObject = {};
    for (const [name, sub] of Object.entries(schema.properties))
      properties[name] = convert(asObject(sub), ctx);
    out.properties = properties;
    const required = Array.isArray(schema.required) ? schema.required : [];
    const known = required.filter((name): name is string => typeof name === 'string' && name in properties);
    if (known.length > 0) out.required = known;
  }
  const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
  if (isRecord(items)) out.items = convert(items, ctx);
  applyAnyOf(schema, out, ctx);
  if (Array.isArray(schema.allOf)) {
    for (const member of schema.allOf) mergeInto(out, convert(asObject(member), ctx));
  }
  return out;
}

function convertRef(ref: string, schema: JsonObject, ctx: Context): JsonObject {
  const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
  const target = name === undefined ? undefined : ctx.definitions[decodeURIComponent(name)];
  if (!isRecord(target) || ctx.expanding.has(ref)) return { type: 'object' };
  ctx.expanding.add(ref);
  // Sibling keywords (a description next to the $ref) win over the definition's own.
  const { $ref: _ignored, ...siblings } = schema;
  const out = { ...convert(target, ctx), ...convert(siblings, ctx) };
  ctx.expanding.delete(ref);
  return out;
}

function applyType(type: unknown, out: JsonObject): void {
  const types = (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length < types.length) out.nullable = true;
  if (nonNull.length === 1) out.type = nonNull[0];
  else if (nonNull.length > 1) out.anyOf = nonNull.map((t) => ({ type: t }));
}

function applyEnum(schema: JsonObject, out: JsonObject): void {
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (!values) return;
  const strings = values.filter((v): v is string => typeof v === 'string');
  const hadNull = values.includes(null);
  if (strings.length === 0 || strings.length + (hadNull ? 1 : 0) !== values.length) return;
  out.enum = strings;
  out.type ??= 'string';
  if (hadNull) out.nullable = true;
}

function applyFormat(format: unknown, out: JsonObject): void {
  if (typeof format !== 'string') return;
  const allowed = out.type === 'string' ? STRING_FORMATS : NUMBER_FORMATS;
  if ((out.type === 'string' || out.type === 'number' || out.type === 'integer') && allowed.has(format)) {
    out.format = format;
  }
}

function applyAnyOf(schema: JsonObject, out: JsonObject, ctx: Context): void {
  const raw = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  const nonNull = raw.filter((member) => !(isRecord(member) && member.type === 'null'));
  if (nonNull.length < raw.length) out.nullable = true;
  const members = nonNull.map((member) => convert(asObject(member), ctx));
  if (members.length === 1) mergeInto(out, members[0]!);
  else if (members.length > 1) out.anyOf = members;
}

/** Shallow merge used for allOf and single-member anyOf; properties and required are unioned. */
function mergeInto(out: JsonObject, extra: JsonObject): void {
  for (const [key, value] of Object.entries(extra)) {
    if (key === 'properties' && isRecord(out.properties) && isRecord(value)) {
      out.properties = { ...out.properties, ...value };
    } else if (key === 'required' && Array.isArray(out.required) && Array.isArray(value)) {
      out.required = [...new Set([...out.required, ...value])];
    } else if (out[key] === undefined) {
      out[key] = value;
    }
  }
}

function asObject(value: unknown): JsonObject {
  return isRecord(value) ? value : {};
}
