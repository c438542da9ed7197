/**
 * The reads of a stream's stage loop (byte-channel.ts). A runtime byte stream (a fetch body) is
 * read into one buffer of the stream's own, and each chunk is copied out at its size: workerd's
 * default reader gives every chunk a fresh 4 KiB buffer, a 30-byte SSE token included, and with
 * thousands of streams open that churn of external memory forced a full, atomic collection of
 * the isolate's heap every two to three seconds (130–170 ms each, every request on the isolate
 * waiting; `--trace-gc` under `npm run bench:streams`). The copy is the chunk's alone, so a stage
 * may keep it (a partial line, the cache's copy) while the buffer is read into again. Any other
 * stream (a stage's output, Node's) is read as it comes.
 */
export interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason?: unknown): Promise<void>;
}

/** The same size as workerd's default reads, so a chunk is split no finer than before. */
const READ_BUFFER_BYTES = 4096;

export function chunkReader(source: ReadableStream<Uint8Array>): ChunkReader {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = source.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream: its chunks are already its own.
    return source.getReader();
  }
  let buffer = new ArrayBuffer(READ_BUFFER_BYTES);
  return {
    async read() {
      const result = await reader.read(new Uint8Array(buffer));
      if (result.value !== undefined) buffer = result.value.buffer as ArrayBuffer;
      if (result.done) return { done: true, value: undefined };
      return { done: false, value: result.value.slice() };
    },
    cancel: (reason) => reader.cancel(reason),
  };
}
