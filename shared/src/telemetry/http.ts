import type { Attributes } from './span';

/** An HTTP server span's request attributes (HTTP semantic conventions), from a Web Request. */
export function httpServerAttributes(request: Request, path: string): Attributes {
  const url = new URL(request.url);
  return {
    'http.request.method': request.method,
    'url.path': path,
    'url.scheme': url.protocol.replace(':', ''),
    'server.address': url.hostname,
    'server.port': url.port ? Number(url.port) : undefined,
    'user_agent.original': request.headers.get('user-agent') ?? undefined,
  };
}
