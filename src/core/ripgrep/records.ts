/**
 * Splits a byte stream into records ended by one separator byte (`\n` for `rg --json`, NUL for
 * `rg --files --null`), whatever the chunk boundaries. Splitting happens on bytes, before any decoding, so
 * a chunk that ends in the middle of a record or of a UTF-8 character is simply carried over: neither
 * separator byte can occur inside a multi-byte UTF-8 sequence.
 *
 * `onRecord(buf, start, end)` receives the record as the byte range `[start, end)` of `buf` (separator
 * excluded), valid only during the call. Empty records are skipped.
 */
export class RecordSplitter {
  private carry: Buffer[] = [];

  constructor(
    private readonly separator: number,
    private readonly onRecord: (buf: Buffer, start: number, end: number) => void,
  ) {}

  /**
   * Feeds the next chunk, which need stay valid only during the call (a reader may reuse its buffer): what is
   * carried over to the next chunk is copied. Throws whatever `onRecord` throws.
   */
  push(chunk: Buffer): void {
    let start = 0;
    let sep = chunk.indexOf(this.separator);
    if (sep < 0) {
      if (chunk.length) this.carry.push(Buffer.from(chunk));
      return;
    }
    if (this.carry.length) {
      this.carry.push(chunk.subarray(0, sep));
      const record = Buffer.concat(this.carry);
      this.carry = [];
      if (record.length) this.onRecord(record, 0, record.length);
      start = sep + 1;
      sep = chunk.indexOf(this.separator, start);
    }
    while (sep >= 0) {
      if (sep > start) this.onRecord(chunk, start, sep);
      start = sep + 1;
      sep = chunk.indexOf(this.separator, start);
    }
    // A copy: the chunk's bytes may change after the call, and a small carried fragment must not keep a large
    // chunk alive either.
    if (start < chunk.length) this.carry.push(Buffer.from(chunk.subarray(start)));
  }

  /** The first `n` bytes carried over (a record not yet ended by a separator), or all of them when fewer. */
  carriedHead(n: number): Buffer {
    // The first piece usually holds them: a long cut record is not joined just to read its start.
    const first = this.carry[0];
    if (first === undefined || first.length >= n || this.carry.length === 1) return (first ?? Buffer.alloc(0)).subarray(0, n);
    return Buffer.concat(this.carry).subarray(0, n);
  }

  /** Ends the stream, passing on a last record that had no separator after it. */
  end(): void {
    if (!this.carry.length) return;
    const record = Buffer.concat(this.carry);
    this.carry = [];
    if (record.length) this.onRecord(record, 0, record.length);
  }
}
