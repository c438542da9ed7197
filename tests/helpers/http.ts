/** JSON over real HTTP, for the e2e suites. */
export async function http(
  method: string,
  url: string,
  options: { body?: unknown; token?: string } = {},
  // biome-ignore lint/suspicious/noExplicitAny: test responses are asserted field by field.
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text for the assertion message.
  }
  // biome-ignore lint/suspicious/noExplicitAny: see above.
  return { status: res.status, body: body as any, headers: res.headers };
}
