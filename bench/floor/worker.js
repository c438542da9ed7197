// The floor of a gateway on workerd, for `npm run bench:peers` (targets `workerd` and
// `workerd-store`): what the runtime itself adds to a proxied call, with nothing of Sluice in it.
// `workerd` forwards the request to the fake upstream untouched and returns the upstream's
// response as it comes. `workerd-store` first makes the one store round trip an exact admission
// needs, the way Sluice's gateway makes it under `npm run serve`: an RPC to a Durable Object in
// the same process that holds a Redis socket (a Worker's socket belongs to the request that
// opened it) and counts the request there.
import { connect } from 'cloudflare:sockets';
import { DurableObject } from 'cloudflare:workers';

const encoder = new TextEncoder();

/** One RESP command (an array of bulk strings). */
function command(...parts) {
  const bulk = parts.map((part) => `$${encoder.encode(part).length}\r\n${part}\r\n`).join('');
  return encoder.encode(`*${parts.length}\r\n${bulk}`);
}

export class StoreLink extends DurableObject {
  /** Resolvers of the commands sent and not yet answered, in order (Redis answers in order). */
  waiting = [];
  writer = null;

  open() {
    const url = new URL(this.env.REDIS_URL);
    const socket = connect({ hostname: url.hostname, port: Number(url.port || 6379) });
    this.writer = socket.writable.getWriter();
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    if (password) this.send(user ? command('AUTH', user, password) : command('AUTH', password));
    const database = url.pathname.slice(1);
    if (database) this.send(command('SELECT', database));
    void this.read(socket.readable.getReader());
  }

  send(bytes) {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      // A failed write shows as the read side's end, which answers every waiting command.
      this.writer.write(bytes).catch(() => {});
    });
  }

  /** Every reply this link asks for is one line (+OK, :n or -ERR). */
  async read(reader) {
    const decoder = new TextDecoder();
    let buffered = '';
    let ending = '-ERR the Redis connection closed';
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffered += decoder.decode(read.value, { stream: true });
        for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          this.waiting.shift()?.(line);
        }
      }
    } catch (error) {
      ending = `-ERR ${error}`;
    }
    this.writer = null;
    for (const resolve of this.waiting.splice(0)) resolve(ending);
  }

  count() {
    if (this.writer === null) this.open();
    return this.send(command('INCR', 'sluice-bench-floor'));
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/health') return new Response('ok\n');
    if (env.STORE === 'on') {
      const reply = await env.LINK.get(env.LINK.idFromName('link')).count();
      if (!reply.startsWith(':')) return new Response(`the store answered ${reply}\n`, { status: 502 });
    }
    return fetch(`${env.UPSTREAM}${url.pathname}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
  },
};
