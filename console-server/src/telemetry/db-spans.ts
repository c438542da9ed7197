import type { Span } from '@sluice/shared/telemetry';

type Query = (...args: unknown[]) => unknown;
interface Queryable {
  query: Query;
}
interface PoolLike extends Queryable {
  connect(...args: unknown[]): unknown;
}

/** The statement's text, whichever form the query was given in. */
function statementOf(args: unknown[]): string {
  const first = args[0];
  if (typeof first === 'string') return first;
  const text = (first as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

const OPERATION = /^\s*(select|insert|update|delete|with|begin|commit|rollback|create|alter|drop)\b/i;

function traced(query: Query, target: Queryable, parent: () => Span | undefined, namespace: string): Query {
  return (...args: unknown[]) => {
    const span = parent();
    if (!span?.recording) return query.apply(target, args);
    const text = statementOf(args);
    const operation = OPERATION.exec(text)?.[1]?.toUpperCase();
    const child = span.child(operation ? `${operation} ${namespace}` : 'postgresql', 'client', {
      'db.system.name': 'postgresql',
      'db.namespace': namespace,
      'db.operation.name': operation,
      // Statements are parameterized ($1, $2 …): the text carries no values.
      'db.query.text': text.slice(0, 2_000),
    });
    const failed = (error: unknown) =>
      child.set('error.type', error instanceof Error ? error.name : 'error').fail(String(error));
    const callback = args[args.length - 1];
    if (typeof callback === 'function') {
      // Callback style (how the pool runs its own queries): the span ends when it is called.
      const done = (error: unknown, ...rest: unknown[]) => {
        if (error) failed(error);
        child.end();
        return (callback as (...a: unknown[]) => unknown)(error, ...rest);
      };
      return query.apply(target, [...args.slice(0, -1), done]);
    }
    const result = query.apply(target, args) as Promise<unknown> | unknown;
    if (!(result instanceof Promise)) {
      child.end();
      return result;
    }
    return result.then(
      (value) => {
        child.end();
        return value;
      },
      (error: unknown) => {
        failed(error);
        child.end();
        throw error;
      },
    );
  };
}

/**
 * Database spans for the console's Postgres pool: every query is a client span under the
 * request's span. The pool runs its own queries on a client it lends itself (pool.query is
 * connect + client.query), so the clients are what is wrapped, each once.
 */
export function traceDbQueries(pool: PoolLike, parent: () => Span | undefined, databaseUrl: string): void {
  let namespace = 'postgres';
  try {
    namespace = new URL(databaseUrl).pathname.replace(/^\//, '') || namespace;
  } catch {
    // Not a URL: the default name stands.
  }
  const wrapped = new WeakSet<object>();
  const wrap = (client: Queryable | undefined): void => {
    if (!client || wrapped.has(client)) return;
    wrapped.add(client);
    client.query = traced(client.query, client, parent, namespace);
  };
  const connect = pool.connect;
  pool.connect = (...args: unknown[]) => {
    const callback = args[args.length - 1];
    if (typeof callback === 'function') {
      const given = (error: unknown, client: Queryable | undefined, ...rest: unknown[]) => {
        wrap(client);
        return (callback as (...a: unknown[]) => unknown)(error, client, ...rest);
      };
      return connect.apply(pool, [...args.slice(0, -1), given]);
    }
    const lent = connect.apply(pool, args) as Promise<Queryable> | unknown;
    if (!(lent instanceof Promise)) return lent;
    return lent.then((client: Queryable) => {
      wrap(client);
      return client;
    });
  };
}
