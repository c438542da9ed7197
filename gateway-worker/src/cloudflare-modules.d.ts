// The two workerd modules the Redis link uses, as far as it uses them (the full typings of
// @cloudflare/workers-types would clash with the DOM library the rest of the code compiles with).
declare module 'cloudflare:sockets' {
  export interface Socket {
    readonly readable: ReadableStream<Uint8Array>;
    readonly writable: WritableStream<Uint8Array>;
    readonly closed: Promise<void>;
    close(): Promise<void>;
  }
  export function connect(
    address: { hostname: string; port: number },
    options?: { secureTransport?: 'off' | 'on' | 'starttls'; allowHalfOpen?: boolean },
  ): Socket;
}

declare module 'cloudflare:workers' {
  /** The object's state (storage, waitUntil...): the link keeps nothing in it. */
  export type DurableObjectContext = object;
  export abstract class DurableObject<Env = unknown> {
    protected ctx: DurableObjectContext;
    protected env: Env;
    constructor(ctx: DurableObjectContext, env: Env);
  }
}
