// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents and schemas are walked structurally.
type Json = any;

/** Values of every wrong shape a field can be sent: types, sizes, encodings, injections. */
export const WRONG_VALUES: readonly unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  -9007199254740992,
  true,
  '',
  ' ',
  'x'.repeat(20_000),
  'nul\u0000byte',
  'lone \ud800 surrogate',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '2026-13-45T99:99:99Z',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  [],
  [null],
  ['x', 1, {}],
  {},
  { nested: { deeper: [1, { x: null }] } },
];

/** Whole bodies that are not what any endpoint takes. */
export const WRONG_BODIES: readonly string[] = [
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '42',
  '{"a":',
  `${'['.repeat(100)}${']'.repeat(100)}`,
  '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
];

/** Path parameter values: unknown ids, malformed ids, encodings, traversal. */
export const WRONG_PATH_VALUES: readonly string[] = [
  'nope',
  '00000000-0000-0000-0000-000000000000',
  '-1',
  '99999999999999999999',
  'a'.repeat(300),
  '%00',
  '%ZZ',
  '..%2F..%2Fetc',
  '%F0%9F%92%A9',
];

/** Query values of wrong types and sizes. */
export const WRONG_QUERY_VALUES: readonly string[] = [
  '',
  '-1',
  'abc',
  '99999999999999999999',
  '1e400',
  '%00',
  'x'.repeat(5_000),
];

export interface FuzzOperation {
  method: string;
  template: string;
  pathParams: string[];
  queryParams: string[];
  bodyProperties: string[];
  hasBody: boolean;
}

function resolve(doc: Json, schema: Json): Json {
  let current = schema;
  for (let i = 0; i < 10 && current?.$ref; i++) {
    const path = String(current.$ref).replace(/^#\//, '').split('/');
    current = path.reduce((node: Json, part: string) => node?.[part], doc);
  }
  return current ?? {};
}

/** Every operation of an OpenAPI 3.1 document, with the names the fuzz varies. */
export function fuzzOperations(doc: Json): FuzzOperation[] {
  const operations: FuzzOperation[] = [];
  for (const [template, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params: Json[] = (operation.parameters ?? []).map((p: Json) => resolve(doc, p));
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const bodySchema = body ? resolve(doc, body) : null;
      operations.push({
        method: method.toUpperCase(),
        template,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyProperties: Object.keys(bodySchema?.properties ?? {}),
        hasBody: bodySchema !== null,
      });
    }
  }
  return operations;
}

export interface FuzzCase {
  method: string;
  path: string;
  body?: string;
}

/** The malformed requests for one operation: bad path values, bad query values, bad bodies. */
export function fuzzCases(
  operation: FuzzOperation,
  validPathValue = '00000000-0000-4000-8000-000000000000',
): FuzzCase[] {
  const fill = (value: string) =>
    operation.pathParams.reduce((path, name) => path.replace(`{${name}}`, value), operation.template);
  const base = fill(validPathValue);
  const cases: FuzzCase[] = [];
  const body = operation.hasBody ? '{}' : undefined;
  if (operation.pathParams.length > 0) {
    for (const value of WRONG_PATH_VALUES) cases.push({ method: operation.method, path: fill(value), body });
  }
  for (const name of operation.queryParams) {
    for (const value of WRONG_QUERY_VALUES) {
      cases.push({ method: operation.method, path: `${base}?${name}=${encodeURIComponent(value)}`, body });
    }
  }
  if (operation.hasBody) {
    for (const raw of WRONG_BODIES) cases.push({ method: operation.method, path: base, body: raw });
    for (const name of operation.bodyProperties) {
      for (const value of WRONG_VALUES) {
        cases.push({ method: operation.method, path: base, body: JSON.stringify({ [name]: value }) });
      }
    }
  }
  return cases;
}
