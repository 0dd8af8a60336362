import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A real HTTP server on 127.0.0.1 (never any other address) started by a test. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** `origin` + `path`. */
  url(path: string): string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** TCP connections accepted and not yet closed (a leaked client socket keeps one open). */
  readonly openConnections: number;
  /** Requests received so far, in order. */
  readonly requests: readonly { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** Resolves when a connection the server accepted has closed (e.g. after the client aborted). */
  nextSocketClose(): Promise<void>;
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
}

/**
 * Starts `handler` on 127.0.0.1 at a free port. Request bodies are read before `handler` runs.
 * Close it in `after`/`afterEach`.
 */
export async function startLoopbackServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const closeWaiters: (() => void)[] = [];
  const requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res);
    });
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closeWaiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path) => `${origin}${path}`,
    get connections() {
      return connections;
    },
    get openConnections() {
      return sockets.size;
    },
    requests,
    nextSocketClose: () => new Promise<void>((resolve) => closeWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
