import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import * as zlib from 'node:zlib';
import { AddressGuard } from '../../../src/core/web/http/addressGuard';
import { DEFAULT_MAX_BODY_BYTES, followSameOrigin, httpRequest, parseRetryAfter, type HttpRequestOptions } from '../../../src/core/web/http/client';
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopbackServer';

const TEXT = 'Scout fetched this text. '.repeat(200);

/** Writes chunks until the client goes away. */
function streamForever(res: ServerResponse, chunk: Buffer): void {
  const pump = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

const ROUTES: Record<string, (res: ServerResponse, method: string) => void> = {
  '/text': (res) => res.end(TEXT),
  '/gzip': (res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(TEXT)),
  '/br': (res) => res.writeHead(200, { 'content-encoding': 'br' }).end(zlib.brotliCompressSync(TEXT)),
  '/deflate-zlib': (res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end(zlib.deflateSync(TEXT)),
  '/deflate-raw': (res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end(zlib.deflateRawSync(TEXT)),
  '/deflate-split': (res) => {
    const data = zlib.deflateSync(TEXT); // the first byte alone cannot tell zlib from raw deflate
    res.writeHead(200, { 'content-encoding': 'deflate' }).write(data.subarray(0, 1));
    setTimeout(() => res.end(data.subarray(1)), 20);
  },
  '/gzip-bomb': (res) => res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/html' }).end(zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20))),
  '/endless': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }); // no Content-Length: chunked
    streamForever(res, Buffer.alloc(64 * 1024, 0x61));
  },
  '/claims-more': (res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('only ten b');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/claims-huge': (res) => {
    res.writeHead(200, { 'content-length': String(10 * 1024 ** 3) });
    streamForever(res, Buffer.alloc(64 * 1024, 0x62));
  },
  '/unknown-coding': (res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end('zzz'),
  '/corrupt-gzip': (res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(Buffer.from('not gzip at all')),
  '/dir/start': (res) => res.writeHead(302, { location: './next' }).end(),
  '/dir/next': (res) => res.writeHead(301, { location: '/final' }).end(),
  '/final': (res) => res.end('arrived'),
  '/loop/a': (res) => res.writeHead(302, { location: '/loop/b' }).end(),
  '/loop/b': (res) => res.writeHead(307, { location: '/loop/a' }).end(),
  '/to-metadata': (res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end('moved'),
  '/to-ftp': (res) => res.writeHead(302, { location: 'ftp://example.org/file' }).end(),
  '/form': (res) => res.writeHead(303, { location: '/method' }).end(),
  '/method': (res, method) => res.end(method),
  '/error': (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('database is down'),
  '/limited': (res) => res.writeHead(429, { 'retry-after': '3' }).end('slow down'),
  '/stall-headers': () => undefined,
  '/stall-body': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial');
  },
};

describe('web/http client', function () {
  this.timeout(20_000);
  let server: LoopbackServer;
  const allow = new AddressGuard(['127.0.0.1']);
  const get = (path: string, extra: Partial<HttpRequestOptions> = {}) => httpRequest({ url: server.url(path), timeoutMs: 5000, guard: allow, ...extra });

  before(async () => {
    server = await startLoopbackServer((req, res) => {
      const path = (req.url ?? '').split('?')[0]!;
      if (path.startsWith('/chain/')) {
        const n = Number(path.slice(7));
        res.writeHead(302, { location: `/chain/${n + 1}` }).end();
      } else if (path === '/echo') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ headers: req.headers, body: server.requests.at(-1)?.body }));
      } else (ROUTES[path] ?? ((r: ServerResponse) => r.writeHead(404).end('no route')))(res, req.method ?? '');
    });
  });
  after(() => server.close());

  describe('bodies', () => {
    it('reads a plain body', async () => {
      const res = await get('/text');
      assert.deepEqual([res.status, res.body.toString(), res.cut, res.url], [200, TEXT, null, server.url('/text')]);
    });

    for (const path of ['/gzip', '/br', '/deflate-zlib', '/deflate-raw', '/deflate-split']) {
      it(`decompresses ${path.slice(1)}`, async () => {
        const res = await get(path);
        assert.equal(res.body.toString(), TEXT);
        assert.equal(res.cut, null);
      });
    }

    it('stops a gzip bomb at the decoded-byte cap', async () => {
      const res = await get('/gzip-bomb');
      assert.equal(res.body.length, DEFAULT_MAX_BODY_BYTES);
      assert.equal(res.cut, 'maxBytes');
    });

    it('stops an endless chunked body at the cap and closes the connection', async () => {
      const closed = server.nextSocketClose();
      const res = await get('/endless', { maxBodyBytes: 1_000_000 });
      assert.deepEqual([res.body.length, res.cut], [1_000_000, 'maxBytes']);
      await closed;
    });

    it('reports a body shorter than its Content-Length as cut', async () => {
      const res = await get('/claims-more');
      assert.deepEqual([res.body.toString(), res.cut], ['only ten b', 'closed']);
    });

    it('does not trust a huge Content-Length', async () => {
      const res = await get('/claims-huge', { maxBodyBytes: 200_000 });
      assert.deepEqual([res.body.length, res.cut], [200_000, 'maxBytes']);
    });

    it('refuses an unknown or corrupt content coding', async () => {
      await assert.rejects(get('/unknown-coding'), { code: 'WEB_BAD_RESPONSE', message: /"zstd"/ });
      await assert.rejects(get('/corrupt-gzip'), { code: 'WEB_BAD_RESPONSE' });
    });

    it('returns a 500 with its body as a result', async () => {
      const res = await get('/error');
      assert.deepEqual([res.status, res.body.toString()], [500, 'database is down']);
    });

    it('reports Retry-After in ms', async () => {
      const res = await get('/limited');
      assert.deepEqual([res.status, res.retryAfterMs], [429, 3000]);
      assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.UTC(2015, 9, 21, 7, 28, 0)), 10_000);
      assert.equal(parseRetryAfter('soon'), null);
    });

    it('sends JSON with headers, and always asks for compressed bodies', async () => {
      const res = await httpRequest({ url: server.url('/echo'), method: 'POST', json: { q: 'scout' }, headers: { 'X-Subscription-Token': 't' }, timeoutMs: 5000, guard: allow });
      const echo = JSON.parse(res.body.toString()) as { headers: Record<string, string>; body: string };
      assert.equal(echo.body, '{"q":"scout"}');
      assert.equal(echo.headers['content-type'], 'application/json');
      assert.equal(echo.headers['x-subscription-token'], 't');
      assert.equal(echo.headers['accept-encoding'], 'gzip, deflate, br');
    });
  });

  describe('redirects', () => {
    it('follows relative ./x and /y redirects within the origin', async () => {
      const res = await get('/dir/start');
      assert.deepEqual([res.status, res.body.toString(), res.url], [200, 'arrived', server.url('/final')]);
      assert.deepEqual(res.redirects, [server.url('/dir/start'), server.url('/dir/next')]);
    });

    it('refuses a redirect loop', async () => {
      await assert.rejects(get('/loop/a'), { code: 'WEB_REDIRECT', message: /loop/ });
    });

    it('refuses more than 5 hops', async () => {
      await assert.rejects(get('/chain/0'), { code: 'WEB_REDIRECT', message: /more than 5 times/ });
      const res = await get('/chain/0', { followRedirect: (_from, to) => to.pathname !== '/chain/6' });
      assert.deepEqual([res.status, res.url, res.redirectTo, res.redirects.length], [302, server.url('/chain/5'), server.url('/chain/6'), 5]);
    });

    it('does not follow a cross-origin hop but returns it, so 169.254.169.254 is never contacted', async () => {
      const res = await get('/to-metadata');
      assert.deepEqual([res.status, res.redirectTo, res.body.toString()], [302, 'http://169.254.169.254/latest/meta-data/', 'moved']);
    });

    it('refuses a redirect to a non-http scheme', async () => {
      await assert.rejects(get('/to-ftp'), { code: 'WEB_REDIRECT', message: /ftp:/ });
    });

    it('continues a 303 after POST as a GET without the body', async () => {
      const res = await httpRequest({ url: server.url('/form'), method: 'POST', body: 'a=1', timeoutMs: 5000, guard: allow });
      assert.equal(res.body.toString(), 'GET');
    });

    it('drops credentials when a followed redirect leaves the origin', async () => {
      const other = await startLoopbackServer((_req, res) => res.end('other'));
      const hop = await startLoopbackServer((_req, res) => res.writeHead(307, { location: other.url('/x') }).end());
      try {
        const res = await httpRequest({ url: hop.url('/'), headers: { authorization: 'Bearer secret', 'x-keep': '1' }, timeoutMs: 5000, guard: allow, followRedirect: () => true });
        assert.equal(res.body.toString(), 'other');
        assert.equal(other.requests[0]!.headers.authorization, undefined);
        assert.equal(other.requests[0]!.headers['x-keep'], '1');
      } finally {
        await Promise.all([other.close(), hop.close()]);
      }
    });

    it('follows same-origin hops and http→https upgrades of the same host only', () => {
      const u = (s: string) => new URL(s);
      assert.equal(followSameOrigin(u('http://a.example/x'), u('http://a.example/y')), true);
      assert.equal(followSameOrigin(u('http://a.example/x'), u('https://a.example/x')), true);
      assert.equal(followSameOrigin(u('http://a.example:8080/x'), u('https://a.example/x')), false);
      assert.equal(followSameOrigin(u('https://a.example/x'), u('http://a.example/x')), false);
      assert.equal(followSameOrigin(u('http://a.example/x'), u('http://b.example/x')), false);
      assert.equal(followSameOrigin(u('http://a.example/x'), u('http://www.a.example/x')), false);
    });
  });

  describe('private-network guard', () => {
    it('refuses 127.0.0.1 without the allow-list and never connects', async () => {
      const before = server.connections;
      await assert.rejects(httpRequest({ url: server.url('/text'), timeoutMs: 5000, guard: new AddressGuard() }), { code: 'WEB_BLOCKED_ADDRESS' });
      assert.equal(server.connections, before);
    });

    it('lets a user-chosen URL through with guard: false', async () => {
      const res = await httpRequest({ url: server.url('/text'), timeoutMs: 5000, guard: false });
      assert.equal(res.status, 200);
    });
  });

  describe('time and cancellation', () => {
    it('fails with WEB_TIMEOUT when no headers arrive in time', async () => {
      await assert.rejects(get('/stall-headers', { timeoutMs: 300 }), { code: 'WEB_TIMEOUT', message: /300 ms/ });
    });

    it('returns what arrived when the server stalls after the headers', async () => {
      const res = await get('/stall-body', { timeoutMs: 400 });
      assert.deepEqual([res.status, res.body.toString(), res.cut], [200, 'partial', 'timeout']);
    });

    it('aborts the socket on cancellation while the body is streaming', async () => {
      const controller = new AbortController();
      const closed = server.nextSocketClose();
      const pending = get('/endless', { signal: controller.signal, maxBodyBytes: 1024 ** 3 });
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(pending, { code: 'WEB_ABORTED' });
      await closed;
    });

    it('aborts before the response, and refuses an already-aborted signal', async () => {
      const controller = new AbortController();
      const pending = get('/stall-headers', { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await assert.rejects(pending, { code: 'WEB_ABORTED' });
      await assert.rejects(get('/text', { signal: AbortSignal.abort() }), { code: 'WEB_ABORTED' });
    });

    it('reports a refused connection as WEB_NETWORK', async () => {
      const gone = await startLoopbackServer(() => undefined);
      const url = gone.url('/');
      await gone.close();
      await assert.rejects(httpRequest({ url, timeoutMs: 5000, guard: allow }), { code: 'WEB_NETWORK', message: /refused the connection/ });
    });
  });
});
