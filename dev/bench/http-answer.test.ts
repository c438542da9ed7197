import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countItems, httpAnswer } from './http-answer';

describe('list items of an answer', () => {
  it('counts a bare array, a page with its total, and an OpenAI list', () => {
    expect(countItems([1, 2, 3])).toEqual({ count: 3, total: null });
    expect(countItems([1, 2, 3], '120')).toEqual({ count: 3, total: 120 });
    expect(countItems([1, 2, 3], null)).toEqual({ count: 3, total: null });
    expect(countItems([1, 2, 3], 'many')).toEqual({ count: 3, total: null });
    expect(countItems({ total: 100_000, offset: 0, limit: 50, entries: Array(50).fill({}) })).toEqual({
      count: 50,
      total: 100_000,
    });
    expect(countItems({ object: 'list', data: [{}, {}] })).toEqual({ count: 2, total: null });
  });

  it('counts nothing in a body that lists nothing', () => {
    expect(countItems({ status: 'ok' })).toBeNull();
    expect(countItems('text')).toBeNull();
    expect(countItems(null)).toBeNull();
  });
});

describe('httpAnswer', () => {
  const server = createServer((req, res) => {
    if (req.url === '/page') res.end(JSON.stringify({ total: 7, offset: 0, limit: 2, entries: [1, 2] }));
    else if (req.url === '/list') res.writeHead(200, { 'x-total-count': '9' }).end(JSON.stringify([1, 2, 3]));
    else res.writeHead(404).end('not json');
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers the status, the body bytes and, when asked, the items', async () => {
    const page = await httpAnswer(`${url}/page`);
    expect(page.status).toBe(200);
    expect(page.bytes).toBe(JSON.stringify({ total: 7, offset: 0, limit: 2, entries: [1, 2] }).length);
    expect(page.items?.()).toEqual({ count: 2, total: 7 });
    const list = await httpAnswer(`${url}/list`);
    expect(list).toMatchObject({ status: 200, bytes: 7 });
    expect(list.items?.()).toEqual({ count: 3, total: 9 });
    const missing = await httpAnswer(`${url}/missing`);
    expect(missing).toMatchObject({ status: 404, bytes: 8 });
    expect(missing.items?.()).toBeNull();
  });
});
