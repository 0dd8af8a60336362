import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { ServerResponse } from 'node:http';
import * as net from 'node:net';
import * as zlib from 'node:zlib';
import { AddressGuard } from '../../../src/core/web/http/addressGuard';
import { CHUNKS_PER_TURN, contentCodings, GrowingBuffer, MAX_CONTENT_CODINGS, readBody, type ReadBody } from '../../../src/core/web/http/body';
import { DEFAULT_MAX_BODY_BYTES, followSameOrigin, httpRequest, parseRetryAfter, type HttpRequestOptions } from '../../../src/core/web/http/client';
import { startLoopbackServer, type LoopbackServer } from '../../helpers/loopbackServer';
import { WatchingAgent } from '../../helpers/watchingAgent';

const TEXT = 'Scout fetched this text. '.repeat(200);

/** A short text brotli-compressed 5,000 times over (19,389 bytes). */
const NESTED_BROTLI = Array.from({ length: 5000 }).reduce<Buffer>(
  (body) => zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 0 } }),
  Buffer.from('Scout nested brotli body.'),
);

/** `data` as an HTTP/1.1 chunked body of one-byte chunks, with its final chunk. */
function oneByteChunks(data: Uint8Array): Buffer {
  const parts: Buffer[] = [];
  for (const byte of data) parts.push(Buffer.from([0x31, 0x0d, 0x0a, byte, 0x0d, 0x0a]));
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** `text` under the content codings of `header`, applied in the order listed (the first listed, first). */
function encodeAs(header: string, text: string | Buffer): Buffer {
  const encoders: Record<string, (b: Buffer) => Buffer> = { gzip: (b) => zlib.gzipSync(b), br: (b) => zlib.brotliCompressSync(b), deflate: (b) => zlib.deflateSync(b) };
  return header.split(',').reduce<Buffer>((body, coding) => encoders[coding.trim()]!(body), Buffer.from(text));
}

/** A raw TCP server on 127.0.0.1 answering every request with `response` (head and body as bytes), then closing. */
async function startRawServer(response: Buffer): Promise<{ url: string; close: () => Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A head for {@link startRawServer}. */
function rawHead(fields: Record<string, string>): Buffer {
  return Buffer.from(`HTTP/1.1 200 OK\r\nconnection: close\r\n${Object.entries(fields).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`, 'latin1');
}

/** True when `body` owns its ArrayBuffer alone (the contract web_fetch's transfer to its worker relies on). */
function ownsItsBuffer(body: Buffer): boolean {
  return body.byteOffset === 0 && body.buffer.byteLength === body.length;
}

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
  '/empty-gzip': (res) => res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': '0' }).end(),
  '/stacked-5': (res) => res.writeHead(200, { 'content-encoding': 'gzip, br, deflate, br, gzip' }).end(encodeAs('gzip, br, deflate, br, gzip', TEXT)),
  '/stacked-6': (res) => res.writeHead(200, { 'content-encoding': 'gzip, br, deflate, br, gzip, br' }).end(encodeAs('gzip, br, deflate, br, gzip, br', TEXT)),
  // 5,000 codings (the most Node's 16 KiB header limit lets through) on a 19 KB body that really is
  // brotli 5,000 times over: it took 15–31 s to decode, with a blocking pause of up to 2.3 s to build decoders.
  '/br-5000': (res) => res.writeHead(200, { 'content-encoding': Array(5000).fill('br').join(',') }).end(NESTED_BROTLI),
  '/coding-with-controls': (res) => res.writeHead(200, { 'content-encoding': 'x\x9b31m\x85gzip' }).end('x'),
  // The outer gzip holds 50,000 empty gzip members (1 MB) that decode to nothing: only the intermediate grows.
  '/intermediate-bomb': (res) => res.writeHead(200, { 'content-encoding': 'gzip, gzip' }).end(zlib.gzipSync(Buffer.concat(Array(50_000).fill(zlib.gzipSync(Buffer.alloc(0)))))),
  '/corrupt-gzip': (res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(Buffer.from('not gzip at all')),
  '/dir/start': (res) => res.writeHead(302, { location: './next' }).end(),
  '/dir/next': (res) => res.writeHead(301, { location: '/final' }).end(),
  '/final': (res) => res.end('arrived'),
  // Raw UTF-8 bytes in Location (Node writes header strings as Latin-1, one byte per character).
  '/to-cafe': (res) => res.writeHead(302, { location: Buffer.from('/wiki/Café', 'utf8').toString('latin1') }).end(),
  '/to-latin1-cafe': (res) => res.writeHead(302, { location: '/wiki/Caf\xe9' }).end(),
  '/wiki/Caf%C3%A9': (res) => res.end('café page'),
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
  this.timeout(60_000);
  let server: LoopbackServer;
  const allow = new AddressGuard(['127.0.0.1']);
  const get = (path: string, extra: Partial<HttpRequestOptions> = {}) => httpRequest({ url: server.url(path), timeoutMs: 30_000, guard: allow, ...extra });

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
      const res = await httpRequest({ url: server.url('/echo'), method: 'POST', json: { q: 'scout' }, headers: { 'X-Subscription-Token': 't' }, timeoutMs: 30_000, guard: allow });
      const echo = JSON.parse(res.body.toString()) as { headers: Record<string, string>; body: string };
      assert.equal(echo.body, '{"q":"scout"}');
      assert.equal(echo.headers['content-type'], 'application/json');
      assert.equal(echo.headers['x-subscription-token'], 't');
      assert.equal(echo.headers['accept-encoding'], 'gzip, deflate, br');
    });
  });

  describe('memory, whatever the chunking', () => {
    it('reads a body sent as 300,000 one-byte chunks exactly, into one buffer of its own', async () => {
      const data = Buffer.from('0123456789abcdef'.repeat(18_750));
      const raw = await startRawServer(Buffer.concat([rawHead({ 'transfer-encoding': 'chunked' }), oneByteChunks(data)]));
      try {
        const res = await httpRequest({ url: raw.url, timeoutMs: 60_000, guard: false });
        assert.equal(res.cut, null);
        assert.ok(res.body.equals(data));
        assert.ok(ownsItsBuffer(res.body), 'the body keeps slices of socket buffers (one object per chunk)');
      } finally {
        await raw.close();
      }
    });

    it('decodes a gzip body whose compressed bytes come one per chunk', async () => {
      const raw = await startRawServer(Buffer.concat([rawHead({ 'transfer-encoding': 'chunked', 'content-encoding': 'gzip' }), oneByteChunks(zlib.gzipSync(TEXT))]));
      try {
        const res = await httpRequest({ url: raw.url, timeoutMs: 60_000, guard: false });
        assert.deepEqual([res.body.toString(), res.cut], [TEXT, null]);
        assert.ok(ownsItsBuffer(res.body));
      } finally {
        await raw.close();
      }
    });

    it('stops one-byte chunks at the cap', async () => {
      const raw = await startRawServer(Buffer.concat([rawHead({ 'transfer-encoding': 'chunked' }), oneByteChunks(Buffer.alloc(20_000, 0x61))]));
      try {
        const res = await httpRequest({ url: raw.url, timeoutMs: 60_000, guard: false, maxBodyBytes: 12_345 });
        assert.deepEqual([res.body.length, res.cut], [12_345, 'maxBytes']);
        assert.ok(ownsItsBuffer(res.body));
      } finally {
        await raw.close();
      }
    });

    it('gives every body a Buffer that owns its ArrayBuffer (byteOffset 0, exact length, not pooled), so it can be transferred', async () => {
      for (const path of ['/text', '/gzip', '/deflate-split', '/gzip-bomb', '/empty-gzip', '/error']) {
        const res = await get(path);
        assert.ok(ownsItsBuffer(res.body), `${path}: byteOffset ${res.body.byteOffset}, ${res.body.length} of ${res.body.buffer.byteLength} bytes`);
      }
      // Buffers of a few KB from Buffer.from/concat come from Node's shared 8 KiB pool; the body never does.
      assert.ok(!ownsItsBuffer(Buffer.from('pooled')), 'the check itself must tell a pooled buffer apart');
    });

    it(`takes at most ${CHUNKS_PER_TURN.toLocaleString('en-US')} chunks in one event-loop turn, then lets the next turn run`, async () => {
      const data = Buffer.alloc(60_000, 0x61);
      const raw = await startRawServer(Buffer.concat([rawHead({ 'transfer-encoding': 'chunked' }), oneByteChunks(data)]));
      try {
        // Chunks handed over between two checks of a setImmediate loop. The budget's own immediate may run
        // before or after this one in the same check phase, so a window can hold two turns' worth. Without the
        // budget one 64 KiB socket read alone hands over 10,922 chunks in one go.
        let inWindow = 0;
        let most = 0;
        let reading = true;
        const tick = (): void => {
          most = Math.max(most, inWindow);
          inWindow = 0;
          if (reading) setImmediate(tick);
        };
        const read = await new Promise<ReadBody>((resolve, reject) => {
          http.get(raw.url, (res) => {
            readBody(res, DEFAULT_MAX_BODY_BYTES, new AbortController().signal, null).then(resolve, reject);
            res.on('data', () => inWindow++);
            setImmediate(tick);
          }).on('error', reject);
        });
        reading = false;
        assert.ok(read.body.equals(data));
        assert.ok(most > 0 && most <= 2 * CHUNKS_PER_TURN, `${most} chunks in one turn`);
      } finally {
        await raw.close();
      }
    });

    it('GrowingBuffer copies what it keeps, stops at its cap and hands over an exact buffer', () => {
      const kept = new GrowingBuffer(100_000);
      const chunk = Buffer.from('a');
      for (let i = 0; i < 70_000; i++) assert.equal(kept.append(chunk), true);
      chunk[0] = 0x7a; // the caller reuses its chunk: what was kept must not change
      assert.equal(kept.append(Buffer.alloc(40_000, 0x62)), false);
      const body = kept.take();
      assert.equal(body.length, 100_000);
      assert.equal(body.toString('latin1', 0, 70_000), 'a'.repeat(70_000));
      assert.equal(body.toString('latin1', 70_000), 'b'.repeat(30_000));
      assert.ok(ownsItsBuffer(body));
      assert.ok(ownsItsBuffer(new GrowingBuffer(10).take()));
    });
  });

  describe('content codings', () => {
    it(`undoes up to ${MAX_CONTENT_CODINGS} stacked codings, and refuses a sixth naming the header`, async () => {
      assert.deepEqual([(await get('/stacked-5')).body.toString(), MAX_CONTENT_CODINGS], [TEXT, 5]);
      await assert.rejects(get('/stacked-6'), { code: 'WEB_BAD_RESPONSE', message: /Content-Encoding header lists 6 content codings .*at most 5/ });
    });

    it('refuses 5,000 stacked br codings before building a decoder, and closes the connection', async () => {
      const closed = server.nextSocketClose();
      await assert.rejects(get('/br-5000'), { code: 'WEB_BAD_RESPONSE', message: /Content-Encoding header lists 5,000 content codings \("br,br,br/ });
      await closed;
    });

    it('reads an empty body with a Content-Encoding as empty (decoders are built on the first byte)', async () => {
      const res = await get('/empty-gzip');
      assert.deepEqual([res.status, res.body.length, res.cut], [200, 0, null]);
    });

    it('shows control characters of a coding name escaped in the error', async () => {
      await assert.rejects(get('/coding-with-controls'), (e: Error) => {
        assert.match(e.message, /"x\\u009b31m\\u0085gzip"/);
        assert.doesNotMatch(e.message, /[\u0080-\u009f]/);
        return true;
      });
    });

    it('caps what an intermediate decoding produces, not only the final bytes', async () => {
      const res = await get('/intermediate-bomb', { maxBodyBytes: 100_000 });
      assert.deepEqual([res.body.length, res.cut], [0, 'maxBytes']);
    });

    it('lists codings in the order they are undone, ignoring identity, case and empty members', () => {
      assert.deepEqual(contentCodings('GZip, identity,, br'), ['br', 'gzip']);
      assert.deepEqual(contentCodings(undefined), []);
      assert.throws(() => contentCodings('gzip, compress'), { code: 'WEB_BAD_RESPONSE', message: /"compress"/ });
    });
  });

  describe('redirects', () => {
    it('follows relative ./x and /y redirects within the origin', async () => {
      const res = await get('/dir/start');
      assert.deepEqual([res.status, res.body.toString(), res.url], [200, 'arrived', server.url('/final')]);
      assert.deepEqual(res.redirects, [server.url('/dir/start'), server.url('/dir/next')]);
    });

    it('reads a Location of raw UTF-8 bytes as UTF-8, as browsers do (tester: it asked for /wiki/Caf%C3%83%C2%A9)', async () => {
      const res = await get('/to-cafe');
      assert.deepEqual([res.status, res.body.toString(), res.url], [200, 'café page', server.url('/wiki/Caf%C3%A9')]);
      const latin1 = await get('/to-latin1-cafe');
      assert.equal(latin1.url, server.url('/wiki/Caf%C3%A9'), 'a byte that is not UTF-8 keeps its Latin-1 reading (é)');
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
      const res = await httpRequest({ url: server.url('/form'), method: 'POST', body: 'a=1', timeoutMs: 30_000, guard: allow });
      assert.equal(res.body.toString(), 'GET');
    });

    it('drops credentials when a followed redirect leaves the origin', async () => {
      const other = await startLoopbackServer((_req, res) => res.end('other'));
      const hop = await startLoopbackServer((_req, res) => res.writeHead(307, { location: other.url('/x') }).end());
      try {
        const res = await httpRequest({ url: hop.url('/'), headers: { authorization: 'Bearer secret', 'x-keep': '1' }, timeoutMs: 30_000, guard: allow, followRedirect: () => true });
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
      await assert.rejects(httpRequest({ url: server.url('/text'), timeoutMs: 30_000, guard: new AddressGuard() }), { code: 'WEB_BLOCKED_ADDRESS' });
      assert.equal(server.connections, before);
    });

    it('lets a user-chosen URL through with guard: false', async () => {
      const res = await httpRequest({ url: server.url('/text'), timeoutMs: 30_000, guard: false });
      assert.equal(res.status, 200);
    });
  });

  describe('time and cancellation', () => {
    it('fails with WEB_TIMEOUT when no headers arrive in time', async () => {
      await assert.rejects(get('/stall-headers', { timeoutMs: 300 }), { code: 'WEB_TIMEOUT', message: /300 ms/ });
    });

    it('returns what arrived when the server stalls after the headers', async () => {
      // The test decides when time is up (the deadline option), once the client has read the partial body.
      const agent = new WatchingAgent();
      const deadline = new AbortController();
      void agent.until('partial').then(() => deadline.abort());
      try {
        const res = await get('/stall-body', { timeoutMs: 600_000, deadline: deadline.signal, agents: { http: agent } });
        assert.deepEqual([res.status, res.body.toString(), res.cut], [200, 'partial', 'timeout']);
      } finally {
        agent.destroy();
      }
    });

    it('fails with WEB_TIMEOUT when the deadline option aborts before the headers', async () => {
      const deadline = new AbortController();
      const pending = get('/stall-headers', { timeoutMs: 45_000, deadline: deadline.signal });
      deadline.abort();
      await assert.rejects(pending, { code: 'WEB_TIMEOUT', message: /within 45 s/ });
    });

    /** The response to `path`, read by `readBody` with a signal the test aborts with `reason` once `when(res)` fires. */
    function readWithDeadline(path: string, when: (res: http.IncomingMessage, abort: () => void) => void): Promise<ReadBody> {
      const reason = new Error('deadline');
      return new Promise<ReadBody>((resolve, reject) => {
        http.get(server.url(path), (res) => {
          const deadline = new AbortController();
          readBody(res, DEFAULT_MAX_BODY_BYTES, deadline.signal, reason).then(resolve, reject);
          when(res, () => deadline.abort(reason));
        }).on('error', reject);
      });
    }

    it('says the server was still sending when the deadline passes mid-body', async () => {
      const read = await readWithDeadline('/stall-body', (res, abort) => res.once('data', () => setImmediate(abort)));
      assert.deepEqual([read.body.toString(), read.cut], ['partial', 'timeout']);
    });

    it('says decompression was still running when the deadline passes after the whole body arrived', async () => {
      // 'end' of the wire comes before the decoder (on the thread pool) has produced its output.
      const read = await readWithDeadline('/gzip-bomb', (res, abort) => res.once('end', abort));
      assert.equal(read.cut, 'decodeTimeout');
      assert.ok(ownsItsBuffer(read.body));
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
      await assert.rejects(httpRequest({ url, timeoutMs: 30_000, guard: allow }), { code: 'WEB_NETWORK', message: /refused the connection/ });
    });
  });
});
