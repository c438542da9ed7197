/**
 * Reads a response body until its text holds `marker`, and hands back the reader (still open)
 * so the test can leave, stop reading or go on. Throws when the stream ends first.
 */
export async function readUntil(
  body: ReadableStream<Uint8Array> | null,
  marker: string,
): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const reader = body?.getReader();
  if (!reader) throw new Error('expected a stream');
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes(marker)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before ${marker} came`);
    seen += decoder.decode(value, { stream: true });
  }
  return reader;
}
