/** A Buffer method decoding `this[start, end)` to a string. */
type SliceFn = (this: Buffer, start: number, end: number) => string;

// Node's Buffer#utf8Slice/latin1Slice are what toString(encoding, start, end) ends in; calling them directly
// skips its argument handling, which shows in profiles at one call per match or per run of paths. Fall back
// to toString where they are absent.

/** `buf.toString('utf8', start, end)`, called as `utf8Slice.call(buf, start, end)`. */
export const utf8Slice: SliceFn =
  (Buffer.prototype as unknown as { utf8Slice?: SliceFn }).utf8Slice ??
  function (this: Buffer, start, end) {
    return this.toString('utf8', start, end);
  };

/** `buf.toString('latin1', start, end)`, called as `latin1Slice.call(buf, start, end)`. */
export const latin1Slice: SliceFn =
  (Buffer.prototype as unknown as { latin1Slice?: SliceFn }).latin1Slice ??
  function (this: Buffer, start, end) {
    return this.toString('latin1', start, end);
  };
