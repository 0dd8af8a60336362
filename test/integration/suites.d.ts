/** The suite files found by build.mjs (see its `scout:suites` plugin). */
declare module 'scout:suites' {
  export interface SuiteEntry {
    /** Path relative to test/integration, e.g. `suite/glob.test.ts`. */
    readonly file: string;
    /** Evaluates the file, which registers its `describe`/`it` blocks with mocha's globals. */
    load(): unknown;
  }
  export const SUITES: Readonly<Record<import('./report').WindowKind, readonly SuiteEntry[]>>;
}
