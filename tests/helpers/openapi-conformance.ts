import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked structurally.
type Json = any;

export interface ObservedResponse {
  method: string;
  /** Concrete path, e.g. /api/keys/6f1c… */
  path: string;
  status: number;
  body: unknown;
}

/**
 * Checks real responses against an OpenAPI 3.1 document: the operation must exist, the
 * status must be documented for it, and a JSON body must validate against the schema.
 */
export class OpenApiConformance {
  private readonly ajv: Ajv2020;
  private readonly exercised = new Set<string>();

  constructor(private readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: doc.components ?? {} });
  }

  /** Every documented "METHOD /path/template" in the document. */
  operations(): string[] {
    const ops: string[] = [];
    for (const [template, item] of Object.entries<Json>(this.doc.paths)) {
      for (const method of Object.keys(item)) ops.push(`${method.toUpperCase()} ${template}`);
    }
    return ops.sort();
  }

  exercisedOperations(): string[] {
    return [...this.exercised].sort();
  }

  /** Returns problems found (empty when the response conforms). */
  check(observed: ObservedResponse): string[] {
    const template = this.matchTemplate(observed.path);
    const label = `${observed.method} ${observed.path} → ${observed.status}`;
    if (!template) return [`${label}: path not in the OpenAPI document`];
    const operation = this.doc.paths[template][observed.method.toLowerCase()];
    if (!operation) return [`${label}: method not documented for ${template}`];
    this.exercised.add(`${observed.method.toUpperCase()} ${template}`);
    const response = operation.responses?.[String(observed.status)];
    if (!response) return [`${label}: status not documented`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return observed.body === undefined || observed.body === '' ? [] : [];
    const validate = this.ajv.compile(this.rewriteRefs(schema));
    if (validate(observed.body)) return [];
    return [
      `${label}: ${this.ajv.errorsText(validate.errors)} in ${JSON.stringify(observed.body).slice(0, 300)}`,
    ];
  }

  private matchTemplate(path: string): string | undefined {
    const clean = path.split('?')[0]!;
    const templates = Object.keys(this.doc.paths);
    const exact = templates.find((t) => t === clean);
    if (exact) return exact;
    return templates.find((t) => {
      const pattern = new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return pattern.test(clean) && !templates.some((other) => other === clean);
    });
  }

  /** Component references point into the registered "openapi" schema. */
  private rewriteRefs(schema: Json): Json {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
  }
}
