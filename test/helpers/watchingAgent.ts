import * as http from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * An HTTP agent whose sockets tell the test what the client has received, so a test can act right after
 * (end a download with the HTTP client's `deadline` once a stalling server's bytes have arrived, instead of
 * racing a timeout against the network).
 */
export class WatchingAgent extends http.Agent {
  private received = '';
  private readonly waiters: { text: string; resolve: () => void }[] = [];

  override createConnection(options: http.ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    socket?.on('data', (d: Buffer) => {
      this.received += d.toString('latin1');
      for (const w of this.waiters.filter((w) => this.received.includes(w.text))) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        setImmediate(w.resolve); // after the HTTP parser has handled these bytes
      }
    });
    return socket;
  }

  /** Resolves once the client's sockets have received `text` and the client has processed it. */
  until(text: string): Promise<void> {
    return new Promise((resolve) => (this.received.includes(text) ? setImmediate(resolve) : this.waiters.push({ text, resolve })));
  }
}
