/**
 * A glob matcher whose time is linear in the path: an automaton over bytes, simulated state set by state set
 * (Thompson's construction), with the state sets met so far cached as a lazily built DFA.
 *
 * A backtracking `RegExp` cannot be used for globs a model or a repository's text chooses: `x*a*a*a*a*a/*.txt`
 * against a folder named `x` followed by forty `a`s tries every way to split the `a`s between the stars, which
 * takes hours on the calling thread (the extension host). Here each byte of the path costs at most one step per
 * automaton state, whatever the glob.
 */

/** A set of bytes: `set[b] === 1` when byte `b` is in it. */
export type ByteSet = Uint8Array;

/** A glob as a regular expression over bytes, built by `globs.ts` from the parsed glob. */
export type GlobNode =
  /** Exactly one byte of `set`. */
  | { readonly kind: 'byte'; readonly set: ByteSet }
  /** Zero or more bytes, each in `set`. */
  | { readonly kind: 'repeat'; readonly set: ByteSet }
  /** Each item in turn. */
  | { readonly kind: 'sequence'; readonly items: readonly GlobNode[] }
  /** Any one of the branches. */
  | { readonly kind: 'alternation'; readonly branches: readonly GlobNode[] };

/**
 * Called every so many steps of a match; it throws to end the match (the call was cancelled or ran past its
 * deadline), and the error reaches the caller of {@link GlobMatcher.matches}.
 */
export type MatchGuard = () => void;

/** Steps between two calls of a {@link MatchGuard}. */
const GUARD_INTERVAL = 4096;
/** DFA states kept before the cache is dropped and built again, which bounds its memory. */
const MAX_CACHED_STATES = 2048;

interface DfaState {
  /** The automaton's byte states this DFA state stands for, sorted. */
  readonly states: readonly number[];
  readonly accepting: boolean;
  /** The next DFA state for each byte, filled as bytes are met. */
  readonly next: (DfaState | undefined)[];
}

/** A compiled glob automaton; {@link matches} decides a whole path. */
export class GlobMatcher {
  /** For each automaton state: the bytes it consumes (undefined for a state that consumes nothing). */
  private readonly sets: (ByteSet | undefined)[] = [];
  /** For each automaton state: where it goes (after its byte, or at once when it consumes nothing). */
  private readonly outs: number[][] = [];
  private readonly accept: number;
  private readonly entry: number;
  private cache = new Map<string, DfaState>();
  private start: DfaState | undefined;
  /** Scratch marks for state-set building: `marks[s] === generation` when `s` is in the set being built. */
  private readonly marks: Int32Array;
  private generation = 0;
  private steps = 0;

  constructor(node: GlobNode) {
    this.accept = this.add(undefined, []);
    this.entry = this.compile(node, this.accept);
    this.marks = new Int32Array(this.sets.length);
  }

  /**
   * True when the whole of `bytes` (a path's bytes, one per character, as a latin1 string) is matched.
   * `guard` runs every few thousand steps and may throw to stop the match.
   */
  matches(bytes: string, guard?: MatchGuard): boolean {
    let state = this.start ?? (this.start = this.dfaState(this.closure([this.entry])));
    for (let i = 0; i < bytes.length; i++) {
      if (state.states.length === 0) return false;
      const byte = bytes.charCodeAt(i) & 0xff;
      let next = state.next[byte];
      if (next === undefined) {
        next = this.dfaState(this.step(state.states, byte));
        state.next[byte] = next;
      }
      state = next;
      if (++this.steps >= GUARD_INTERVAL) {
        this.steps = 0;
        guard?.();
      }
    }
    return state.accepting;
  }

  private add(set: ByteSet | undefined, out: number[]): number {
    this.sets.push(set);
    this.outs.push(out);
    return this.sets.length - 1;
  }

  /** Adds the states of `node`, continuing to `next`; returns its first state. */
  private compile(node: GlobNode, next: number): number {
    switch (node.kind) {
      case 'byte':
        return this.add(node.set, [next]);
      case 'repeat': {
        const loop = this.add(undefined, []);
        const byte = this.add(node.set, [loop]);
        this.outs[loop]!.push(byte, next);
        return loop;
      }
      case 'sequence': {
        let first = next;
        for (let i = node.items.length - 1; i >= 0; i--) first = this.compile(node.items[i]!, first);
        return first;
      }
      case 'alternation':
        return this.add(undefined, node.branches.map((branch) => this.compile(branch, next)));
    }
  }

  /** The byte-consuming states (and the accepting one) reached from `from` without consuming a byte, sorted. */
  private closure(from: readonly number[]): number[] {
    const generation = ++this.generation;
    const out: number[] = [];
    const stack = [...from];
    while (stack.length) {
      const s = stack.pop()!;
      if (this.marks[s] === generation) continue;
      this.marks[s] = generation;
      this.steps++;
      if (this.sets[s] !== undefined || s === this.accept) out.push(s);
      else for (const t of this.outs[s]!) stack.push(t);
    }
    return out.sort((a, b) => a - b);
  }

  /** The state set after consuming `byte` from the byte states `states`. */
  private step(states: readonly number[], byte: number): number[] {
    const targets: number[] = [];
    for (const s of states) if (this.sets[s]?.[byte] === 1) targets.push(this.outs[s]![0]!);
    return this.closure(targets);
  }

  private dfaState(states: number[]): DfaState {
    const key = states.join(',');
    let state = this.cache.get(key);
    if (state === undefined) {
      if (this.cache.size >= MAX_CACHED_STATES) {
        // Drop every cached state; a match in progress keeps the states it holds until it ends.
        this.cache = new Map();
        this.start = undefined;
      }
      // A set without byte states can only end (or be) a match; it has no next states.
      const byteStates = states.filter((s) => s !== this.accept);
      state = { states: byteStates, accepting: byteStates.length !== states.length, next: new Array<DfaState | undefined>(256) };
      this.cache.set(key, state);
    }
    return state;
  }
}
