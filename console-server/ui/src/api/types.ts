import type { components, paths } from './schema.gen';

/** Named schemas of the console's OpenAPI document: `Schemas['ApiKey']`. */
export type Schemas = components['schemas'];

type Op<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];

/** The JSON body of an operation: `RequestBody<'/api/keys', 'post'>`. */
export type RequestBody<P extends keyof paths, M extends keyof paths[P]> = Op<P, M> extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The query parameters of an operation: `QueryParams<'/api/gateway/logs', 'get'>`. */
export type QueryParams<P extends keyof paths, M extends keyof paths[P]> = Op<P, M> extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

/** The 200/201 JSON answer of an operation. */
export type ResponseBody<P extends keyof paths, M extends keyof paths[P]> = Op<P, M> extends {
  responses: infer R;
}
  ? R extends { 200: { content: { 'application/json': infer B } } }
    ? B
    : R extends { 201: { content: { 'application/json': infer B } } }
      ? B
      : never
  : never;
