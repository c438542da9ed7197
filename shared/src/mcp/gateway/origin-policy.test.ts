import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error';
import { checkMcpOrigin, OPEN_ORIGIN_POLICY, originPolicyFrom } from './origin-policy';

const refused = (host: string | undefined, origin: string | undefined, policy = OPEN_ORIGIN_POLICY) => {
  try {
    checkMcpOrigin({ host, origin }, policy);
    return null;
  } catch (error) {
    return error instanceof AppError ? error.status : 'other';
  }
};

describe('checkMcpOrigin', () => {
  const local = originPolicyFrom('localhost, 127.0.0.1,[::1]', 'https://console.example.com');

  it('lets clients that send no Origin through, on any allowed host', () => {
    expect(refused('127.0.0.1:3000', undefined, local)).toBeNull();
    expect(refused('localhost:3000', undefined, local)).toBeNull();
    expect(refused('[::1]:3000', undefined, local)).toBeNull();
    expect(refused('gateway.example.com', undefined)).toBeNull();
  });

  it('refuses a Host outside the list (DNS rebinding), Origin or not', () => {
    expect(refused('evil.example.com', undefined, local)).toBe(403);
    expect(refused('evil.example.com', 'http://evil.example.com', local)).toBe(403);
    expect(refused(undefined, undefined, local)).toBe(403);
  });

  it('takes a same-origin or listed Origin, and refuses any other (null included)', () => {
    expect(refused('127.0.0.1:3000', 'http://127.0.0.1:3000', local)).toBeNull();
    expect(refused('127.0.0.1:3000', 'https://console.example.com', local)).toBeNull();
    expect(refused('127.0.0.1:3000', 'http://evil.example.com', local)).toBe(403);
    expect(refused('127.0.0.1:3000', 'null', local)).toBe(403);
    expect(refused('gateway.example.com', 'https://evil.example.com')).toBe(403);
    expect(refused('gateway.example.com', 'https://gateway.example.com')).toBeNull();
  });

  it('reads empty settings as no host check and no extra origins', () => {
    expect(originPolicyFrom('', undefined)).toEqual(OPEN_ORIGIN_POLICY);
  });
});
