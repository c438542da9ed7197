// A bare Worker for `npm run bench:stream-floor`: what workerd itself costs per streamed chunk,
// without the gateway. The path names how the upstream's body reaches the client.
const SSE = { headers: { 'content-type': 'text/event-stream' } };

async function readByob(stream, use) {
  const reader = stream.getReader({ mode: 'byob' });
  let buffer = new ArrayBuffer(16_384);
  for (;;) {
    const { done, value } = await reader.read(new Uint8Array(buffer));
    if (done) return;
    use(value);
    buffer = value.buffer;
  }
}

/** Every chunk of `body` read and written by JavaScript into `channel`; its readable side back. */
function copiedInto(channel, body) {
  void (async () => {
    const reader = body.getReader();
    const writer = channel.writable.getWriter();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      await writer.write(read.value);
    await writer.close();
  })();
  return channel.readable;
}

const ways = {
  // The fetch body as the response body: no JavaScript per chunk.
  native: (body) => body,
  // One branch of a tee to the client, the other read in JavaScript (a usage reader's copy).
  tee: (body) => {
    const [client, copy] = body.tee();
    void readByob(copy, () => {});
    return client;
  },
  // Every chunk read and written by JavaScript into the runtime's byte channel.
  js: (body) => copiedInto(new IdentityTransformStream(), body),
  // The same, each chunk read into one buffer of the stream's own and copied out at its size
  // (as the gateway's stages read: shared/src/proxy/chunk-reader.ts), not into a fresh 4 KiB
  // buffer of workerd's per read.
  'js-byob': (body) => {
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter();
    void (async () => {
      const reader = body.getReader({ mode: 'byob' });
      let buffer = new ArrayBuffer(4_096);
      for (;;) {
        const { done, value } = await reader.read(new Uint8Array(buffer));
        if (done) break;
        buffer = value.buffer;
        await writer.write(value.slice());
      }
      await writer.close();
    })();
    return readable;
  },
  // The fetch body piped into the runtime's byte channel (the channel left open, so that
  // JavaScript could write a broken answer's tail after it): no JavaScript per chunk either.
  pipe: (body) => {
    const { readable, writable } = new IdentityTransformStream();
    void body.pipeTo(writable, { preventClose: true, preventAbort: true }).then(
      () => writable.close(),
      () => writable.close(),
    );
    return readable;
  },
  // The same from one branch of a tee, the other read in JavaScript (a usage reader's copy),
  // and the tail written by JavaScript when the answer breaks off.
  'pipe-tee': (body) => {
    const { readable, writable } = new IdentityTransformStream();
    const [client, copy] = body.tee();
    void readByob(copy, () => {});
    void client.pipeTo(writable, { preventClose: true, preventAbort: true }).then(
      () => writable.close(),
      async () => {
        const writer = writable.getWriter();
        await writer.write(new TextEncoder().encode('event: error\ndata: {}\n\n'));
        await writer.close();
      },
    );
    return readable;
  },
  // As js, into a channel that takes up to 64 KiB before a write waits for the client.
  'js-hwm': (body) => copiedInto(new IdentityTransformStream({ highWaterMark: 65_536 }), body),
  // As js, each write left unawaited: only the writer's readiness is waited for.
  'js-ready': (body) => {
    const { readable, writable } = new IdentityTransformStream();
    void (async () => {
      const reader = body.getReader();
      const writer = writable.getWriter();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        await writer.ready;
        writer.write(read.value).catch(() => {});
      }
      await writer.close();
    })();
    return readable;
  },
  // Every chunk through a JavaScript TransformStream.
  stage: (body) => body.pipeThrough(new TransformStream()),
};

export default {
  async fetch(request) {
    const way = ways[new URL(request.url).pathname.slice(1)];
    if (!way) return new Response('no such way', { status: 404 });
    const upstream = await fetch(request.headers.get('x-upstream'), {
      method: 'POST',
      body: await request.text(),
    });
    return new Response(way(upstream.body), SSE);
  },
};
