/**
 * The one error type both apps throw. Each app's onError renders it in its own envelope;
 * nothing else builds error bodies.
 */
export const ERROR_TYPES = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  406: 'invalid_request_error',
  408: 'request_timeout',
  409: 'conflict_error',
  413: 'request_too_large',
  431: 'request_too_large',
  415: 'invalid_request_error',
  422: 'validation_error',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'upstream_error',
  503: 'service_unavailable',
  504: 'upstream_timeout',
} as const;

export type ErrorStatus = keyof typeof ERROR_TYPES;

export interface AppErrorOptions {
  type?: string;
  details?: unknown;
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly type: string;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(status: ErrorStatus, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.type = options.type ?? ERROR_TYPES[status];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (message: string, details?: unknown): AppError =>
  new AppError(400, message, { details });
export const unauthorized = (message: string): AppError => new AppError(401, message);
export const forbidden = (message: string): AppError => new AppError(403, message);
export const notFound = (message: string): AppError => new AppError(404, message);
export const conflict = (message: string): AppError => new AppError(409, message);
export const unprocessable = (message: string, details?: unknown): AppError =>
  new AppError(422, message, { details });
export const tooManyRequests = (message: string, retryAfterSeconds: number): AppError =>
  new AppError(429, message, {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
