/**
 * A bearer token that can be renewed (one Sluice got for itself): a request the server answers
 * 401 is sent once more with a renewed token, and the requests after it carry that one. The
 * body is read first so it can be sent twice: MCP requests are small JSON-RPC messages. A
 * second 401 is the server's answer; a renewal that fails is thrown to the caller.
 */
export function renewingBearer(
  initial: string,
  renew: (refused: string) => Promise<string>,
  base: typeof fetch,
): (request: Request, url: URL) => Promise<Response> {
  let token = initial;
  return async (request, url) => {
    const body = request.body ? await request.arrayBuffer() : null;
    const send = (bearer: string) => {
      const headers = new Headers(request.headers);
      headers.set('authorization', `Bearer ${bearer}`);
      const { method, signal, redirect } = request;
      return base(new Request(url, { method, body, headers, signal, redirect }));
    };
    const used = token;
    const first = await send(used);
    if (first.status !== 401) return first;
    await first.body?.cancel().catch(() => {});
    // Concurrent refusals of one token share the renewal (the token source remembers it).
    token = await renew(used);
    return send(token);
  };
}
