import { describe, expect, it } from 'vitest';
import { listEndpoints } from './console-list-cases';

describe('the console list endpoints of an OpenAPI document', () => {
  it('takes the GETs without path parameters, and says which it leaves out and why', () => {
    const found = listEndpoints({
      paths: {
        '/api/admin/users': { get: { responses: { '200': {} } }, post: {} },
        '/api/admin/users/{id}': { get: { responses: { '200': {} } } },
        '/api/admin/keys': {
          get: { parameters: [{ in: 'query', name: 'q' }], responses: { '200': {} } },
        },
        '/api/auth/sso/authorize': { get: { responses: { '302': {}, '500': {} } } },
        '/api/admin/limits/usage': {
          get: { parameters: [{ in: 'query', name: 'subject', required: true }], responses: { '200': {} } },
        },
        '/api/setup/initialize': { post: {} },
      },
    });
    expect(found.paths).toEqual(['/api/admin/users', '/api/admin/keys']);
    expect(found.skipped).toEqual([
      '/api/auth/sso/authorize: a browser redirect',
      '/api/admin/limits/usage: required subject',
    ]);
  });

  it('finds nothing in a document without paths', () => {
    expect(listEndpoints({})).toEqual({ paths: [], skipped: [] });
  });
});
