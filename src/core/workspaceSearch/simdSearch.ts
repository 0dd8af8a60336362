/**
 * A literal byte-string search that runs as WebAssembly SIMD, 16 positions per step, over file bytes that
 * the reader puts straight into the module's memory (so nothing is copied or decoded to search a file).
 *
 * Why WebAssembly: `workspace_search` looks for a short literal in up to 64 MiB per call. The engine's own
 * searches (`Buffer#indexOf`, `String#indexOf`) run Boyer-Moore-Horspool at about 2 GB/s on source code and
 * cannot ignore ASCII case, so a case-insensitive search had to lowercase a copy of every file first. The
 * kernel below tests two bytes of the needle (its two rarest, see {@link probePositions}) at 16 positions
 * at once, the "generic SIMD" substring search, and compares the whole needle only where both agree: about
 * 10 GB/s, ASCII case folding included.
 *
 * The module is assembled here from its instruction list (no build step, no binary in the tree). In WAT:
 *
 * ```wat
 * (func $find (param $at i32) (param $last i32) (param $needle i32) (param $length i32)
 *             (param $a i32) (param $b i32) (result i32)
 *   ;; $needle: `length` needle bytes, then `length` fold masks (0x20 for an ASCII letter of a case-
 *   ;; insensitive search, else 0). A byte x matches needle byte n with mask f when (x | f) == n.
 *   ;; $a, $b: the probed offsets in the needle. Returns the first candidate c in [$at, $last] whose bytes
 *   ;; all match, or -1. Reads up to 15 bytes past $last + $length - 1: the caller keeps them readable
 *   ;; (their content does not matter).
 *   masks := needle + length
 *   byteA := splat(needle[a]);  foldA := splat(masks[a]);  byteB := splat(needle[b]);  foldB := splat(masks[b])
 *   loop: if at > last: return -1
 *     bits := bitmask((load(at + a) | foldA) == byteA & (load(at + b) | foldB) == byteB)
 *     while bits != 0:
 *       candidate := at + ctz(bits);  bits &= bits - 1
 *       if candidate > last: return -1
 *       if all k < length: (memory[candidate + k] | masks[k]) == needle[k]: return candidate
 *     at += 16
 * )
 * ```
 */

/** The unit in which WebAssembly memory grows. */
const PAGE_BYTES = 65_536;
/** Bytes kept readable after the file: the kernel loads 16 bytes at its last candidate's final byte. */
const SLACK_BYTES = 16;
/** The mask that folds an ASCII capital letter onto its lowercase letter (`A` 0x41 | 0x20 = `a` 0x61). */
const ASCII_CASE_BIT = 0x20;

// WebAssembly binary encoding: the opcodes and types this module uses (WebAssembly Core Specification 2.0, §5).
const I32 = 0x7f;
const V128 = 0x7b;
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const RETURN = 0x0f;
const EMPTY = 0x40;
const I32_LOAD8_U = 0x2d;
const I32_EQZ = 0x45;
const I32_EQ = 0x46;
const I32_NE = 0x47;
const I32_GT_S = 0x4a;
const I32_CTZ = 0x68;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_AND = 0x71;
const I32_OR = 0x72;
const SIMD = 0xfd;
const V128_LOAD = 0x00;
const I8X16_SPLAT = 0x0f;
const I8X16_EQ = 0x23;
const V128_AND = 0x4e;
const V128_OR = 0x50;
const I8X16_BITMASK = 0x64;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    const low = n & 0x7f;
    n >>>= 7;
    out.push(n ? low | 0x80 : low);
  } while (n);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const low = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(low & 0x40)) || (n === -1 && low & 0x40)) return [...out, low];
    out.push(low | 0x80);
  }
}

const vector = (items: readonly number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (text: string): number[] => vector([...text].map((c) => [c.charCodeAt(0)]));

// Locals of $find: the six parameters, then four i32 and four v128 locals.
const AT = 0;
const LAST = 1;
const NEEDLE = 2;
const LENGTH = 3;
const A = 4;
const B = 5;
const MASKS = 6;
const BITS = 7;
const CANDIDATE = 8;
const K = 9;
const BYTE_A = 10;
const FOLD_A = 11;
const BYTE_B = 12;
const FOLD_B = 13;

const get = (local: number) => [0x20, ...uleb(local)];
const set = (local: number) => [0x21, ...uleb(local)];
const constant = (n: number) => [0x41, ...sleb(n)];
const load8 = [I32_LOAD8_U, 0, 0];
const simd = (op: number, ...immediates: number[]) => [SIMD, ...uleb(op), ...immediates];
const load128 = simd(V128_LOAD, 0, 0);
/** `splat(memory[base + offset])` into `local`. */
const splatByte = (base: number, offset: number, local: number) => [...get(base), ...get(offset), I32_ADD, ...load8, ...simd(I8X16_SPLAT), ...set(local)];
/** `(load(at + offset) | fold) == value` as a v128 lane mask. */
const probe = (offset: number, fold: number, value: number) => [
  ...get(AT), ...get(offset), I32_ADD, ...load128, ...get(fold), ...simd(V128_OR), ...get(value), ...simd(I8X16_EQ),
]; // prettier-ignore

const FIND_BODY = [
  ...get(NEEDLE), ...get(LENGTH), I32_ADD, ...set(MASKS),
  ...splatByte(NEEDLE, A, BYTE_A), ...splatByte(MASKS, A, FOLD_A),
  ...splatByte(NEEDLE, B, BYTE_B), ...splatByte(MASKS, B, FOLD_B),
  BLOCK, EMPTY, // $notFound
  LOOP, EMPTY, //   $blocks
  ...get(AT), ...get(LAST), I32_GT_S, BR_IF, 1,
  ...probe(A, FOLD_A, BYTE_A), ...probe(B, FOLD_B, BYTE_B), ...simd(V128_AND), ...simd(I8X16_BITMASK), ...set(BITS),
  BLOCK, EMPTY, //     $nextBlock
  LOOP, EMPTY, //        $candidates
  ...get(BITS), I32_EQZ, BR_IF, 1,
  ...get(AT), ...get(BITS), I32_CTZ, I32_ADD, ...set(CANDIDATE),
  ...get(BITS), ...get(BITS), ...constant(1), I32_SUB, I32_AND, ...set(BITS),
  ...get(CANDIDATE), ...get(LAST), I32_GT_S, BR_IF, 3,
  ...constant(0), ...set(K),
  BLOCK, EMPTY, //           $mismatch
  LOOP, EMPTY, //              $bytes
  ...get(K), ...get(LENGTH), I32_EQ, IF, EMPTY, ...get(CANDIDATE), RETURN, END,
  ...get(CANDIDATE), ...get(K), I32_ADD, ...load8, ...get(MASKS), ...get(K), I32_ADD, ...load8, I32_OR,
  ...get(NEEDLE), ...get(K), I32_ADD, ...load8, I32_NE, BR_IF, 1,
  ...get(K), ...constant(1), I32_ADD, ...set(K), BR, 0,
  END, END, //               $bytes, $mismatch
  BR, 0,
  END, END, //             $candidates, $nextBlock
  ...get(AT), ...constant(16), I32_ADD, ...set(AT), BR, 0,
  END, END, //           $blocks, $notFound
  ...constant(-1),
]; // prettier-ignore

const FIND_CODE = [...vector([[4, I32], [4, V128]]), ...FIND_BODY, END];

/** The module: one function `find` (type [i32 × 6] → [i32]) and one exported memory of 1 page to start. */
const MODULE_BYTES = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, vector([[0x60, ...vector([[I32], [I32], [I32], [I32], [I32], [I32]]), ...vector([[I32]])]])),
  ...section(3, vector([[0]])),
  ...section(5, vector([[0x00, 1]])),
  ...section(7, vector([[...name('find'), 0x00, 0], [...name('memory'), 0x02, 0]])),
  ...section(10, vector([[...uleb(FIND_CODE.length), ...FIND_CODE]])),
]);

let compiled: WebAssembly.Module | undefined;

interface Exports {
  readonly memory: WebAssembly.Memory;
  readonly find: (at: number, last: number, needle: number, length: number, a: number, b: number) => number;
}

/**
 * Printable ASCII, tab and line feed from the most to the least frequent byte in source code (counted over
 * 65 MB of JavaScript, TypeScript, JSON and Markdown in this project's dependencies). Other bytes rank
 * as {@link OTHER_RANK} (UTF-8 outside ASCII: rare in code, but each script reuses a few lead bytes) or
 * last (control characters).
 */
const BY_FREQUENCY = ' etrnoais\nlcudph.mf",g()/y=*;:b_v}{wx0TkA-S\t`C\'IE1RPD2[]ONLjM\\&>|FqBUz3?@4658<H!V9+W7G#$KZQJYX^%~';
const OTHER_RANK = BY_FREQUENCY.indexOf('*');

/** How common `byte` is in source code: 0 for the most common; case-folded letters rank as their commoner case. */
function rank(byte: number, foldAsciiCase: boolean): number {
  const own = byte >= 0x80 ? OTHER_RANK : BY_FREQUENCY.indexOf(String.fromCharCode(byte));
  const rankOf = own === -1 ? BY_FREQUENCY.length : own;
  return foldAsciiCase && byte >= 0x61 && byte <= 0x7a ? Math.min(rankOf, rank(byte - 0x20, false)) : rankOf;
}

/**
 * The two offsets of `needle` the kernel tests first: its two rarest bytes by {@link rank} (the same offset
 * twice for a one-byte needle). Fewer candidates pass the pair, so fewer full comparisons follow.
 */
export function probePositions(needle: Uint8Array, foldAsciiCase: boolean): [number, number] {
  const byRarity = [...needle.keys()].sort((i, j) => rank(needle[j]!, foldAsciiCase) - rank(needle[i]!, foldAsciiCase) || i - j);
  return [byRarity[0]!, byRarity[1] ?? byRarity[0]!];
}

/**
 * Searches file bytes for a fixed set of byte strings (the needles), exactly or ignoring ASCII case. One
 * instance serves one scan: it owns the buffer files are read into ({@link readBuffer}), so searching a
 * file needs no copy. Its memory holds the needles (bytes, then fold masks) from address 0 and the file
 * from the next 64-byte boundary, followed by {@link SLACK_BYTES} readable bytes.
 */
export class SimdByteSearch {
  private readonly exports: Exports;
  /** Address of each needle's record (bytes, then fold masks), its length and its probed offsets. */
  private readonly needles: readonly { readonly address: number; readonly length: number; readonly probes: [number, number] }[];
  /** Address where file bytes start. */
  private readonly haystack: number;
  /** A view of the whole memory, replaced when the memory grows. */
  private bytes: Buffer = Buffer.alloc(0);

  /**
   * @param needles byte strings of at least one byte each
   * @param foldAsciiCase when true, an ASCII letter in a needle also matches its other case (needles must
   *   then hold lowercase letters only); every other byte matches itself only
   */
  constructor(needles: readonly Uint8Array[], foldAsciiCase: boolean) {
    compiled ??= new WebAssembly.Module(MODULE_BYTES);
    this.exports = new WebAssembly.Instance(compiled).exports as unknown as Exports;
    let address = 0;
    this.needles = needles.map((needle) => {
      const record = { address, length: needle.length, probes: probePositions(needle, foldAsciiCase) };
      address += 2 * needle.length;
      return record;
    });
    this.haystack = Math.ceil(address / 64) * 64;
    this.bytes = this.reserve(0);
    needles.forEach((needle, k) => {
      const { address: at, length } = this.needles[k]!;
      this.bytes.set(needle, at);
      for (let i = 0; i < length; i++) {
        const byte = needle[i]!;
        this.bytes[at + length + i] = foldAsciiCase && byte >= 0x61 && byte <= 0x7a ? ASCII_CASE_BIT : 0;
      }
    });
  }

  /**
   * A buffer of `size` bytes for the reader to fill with a file; searching it later needs no copy. It is
   * valid until the next call of this method (the memory may move).
   */
  readBuffer(size: number): Buffer {
    return this.reserve(size).subarray(this.haystack, this.haystack + size);
  }

  /**
   * Finds needle `k` in `bytes` at or after byte offset `from`.
   *
   * @param bytes a buffer from {@link readBuffer}, searched in place, or any other buffer, copied in at
   *   each call (tests do that; the scan reads every file into {@link readBuffer})
   * @returns the byte offset in `bytes` of the first occurrence, or -1
   */
  indexOf(k: number, bytes: Buffer, from: number): number {
    const { address, length, probes } = this.needles[k]!;
    const base = this.place(bytes);
    const found = this.exports.find(base + Math.max(0, from), base + bytes.length - length, address, length, probes[0], probes[1]);
    return found < 0 ? -1 : found - base;
  }

  /** Address of `bytes` in the module's memory; copies them in unless they are already there. */
  private place(bytes: Buffer): number {
    const memory = this.exports.memory.buffer;
    if (bytes.buffer === memory && bytes.byteOffset >= this.haystack && bytes.byteOffset + bytes.length + SLACK_BYTES <= memory.byteLength) {
      return bytes.byteOffset;
    }
    this.reserve(bytes.length).set(bytes, this.haystack);
    return this.haystack;
  }

  /** Grows the memory to hold `size` file bytes plus the slack; returns a view of all of it. */
  private reserve(size: number): Buffer {
    const { memory } = this.exports;
    const needed = this.haystack + size + SLACK_BYTES;
    if (memory.buffer.byteLength < needed) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE_BYTES));
    if (this.bytes.buffer !== memory.buffer) this.bytes = Buffer.from(memory.buffer);
    return this.bytes;
  }
}
