/**
 * fast-check arbitraries for hostile tool arguments: the strings a misled model sends (flags, shell syntax,
 * traversal, absolute and Windows paths, NUL bytes, huge values, odd Unicode) and the objects that carry them
 * (wrong types, unknown and prototype-polluting keys, accessor properties, proxies, null prototypes, arrays,
 * class instances). Every generated argument object counts the reads it sees through getters and proxy
 * traps, so a test can check that a tool never read a value other than by snapshotting it.
 */
import fc from 'fast-check';
import type { HostileWorkspace } from '../../helpers/hostileWorkspace';

/** A generated argument object plus the number of getter calls and proxy `get` traps it has seen. */
export interface Candidate {
  readonly input: unknown;
  /** How the input was wrapped (for failure messages). */
  readonly form: Form;
  readonly reads: { count: number };
}

/** Strings that mean something to rg, a shell, a path resolver, a URL parser or a JSON consumer. */
const HOSTILE_ATOMS = [
  '-e', '-L', '--follow', '--pre=sh', '--pre=/bin/sh', '--files', '--no-config', '--', '-', '--regexp=x', '--glob=!*',
  '-uuu', '--search-zip', '-z', '--type-add=x:*', '-j1', '--replace=$0', '--hidden', '-f/etc/passwd', '--file=/etc/passwd',
  '$(touch PWNED)', '`touch PWNED`', '; touch PWNED', '| touch PWNED', '&& touch PWNED', '>PWNED', '${IFS}', '%s%n',
  '..', '../', '../..', '../../..', './..', '.../', '....//', '..\\', '..%2f', '%2e%2e/', '\u2025/', '.', './', '//', '~', '~/.ssh',
  '$HOME', '/', '/etc', '/etc/passwd', '/proc/self/root/etc', '/proc/self/cwd', '/proc/self/environ', '/dev/zero',
  'C:\\Windows\\System32', 'C:/Windows', '\\\\server\\share\\x', '..\\..\\ws-secret', 'file:///etc/passwd', '\\\\?\\C:\\',
  '*', '**', '**/*', '*.{ts,md}', '{a,b}', '[', ']', '[!a]', '\\', '!', '!*.ts', 'a,b', '(?i)needle', 'needle', '(', '\\p{L}+',
  'src', 'src/a.ts', '-L', '--follow', '--pre=sh', 'app/(auth)/[id]/page.tsx', 'app/(auth)/[id]', 'back\\slash.txt',
  'with space.txt', '.hidden', 'loop', 'loop/loop/src', 'spin1', 'mid', 'mid/link', 'mid/link/secret.txt', 'out', 'out/secret.txt',
  'secret-link.txt', 'src/pipe.ts', 'ws2', 'ws2/lib', 'ws2/../ws-secret', 'ws/../ws-secret', '../ws-secret', '../ws-secret/secret.txt',
  '\0', 'a\0b', '\n', '\r\n', '\t', ' ', '\u202e', '\ufeff', '\u2028', '\u00a0', 'İ', 'ß', '🧭', '\ud800', '\udfff', 'é', 'e\u0301',
  '__proto__', 'constructor', 'prototype', '{"__proto__":{}}', 'null', 'undefined', 'NaN',
];

/** The same strings with this workspace's absolute paths added (the outside directory, spelled several ways). */
function worldAtoms(world: HostileWorkspace): string[] {
  return [
    world.outside,
    `${world.outside}/secret.txt`,
    `${world.outside}/`,
    `${world.root}/../ws-secret`,
    `${world.root}/out`,
    `${world.root}/mid/link`,
    `/proc/self/root${world.outside}`,
    world.root,
    `${world.root}/src`,
    world.second,
    world.base,
  ];
}

/** Lone UTF-16 surrogates and other code units a well-formed string never holds. */
const codeUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 12 }).map((units) => String.fromCharCode(...units));

/**
 * Hostile text: up to four atoms (hostile constants, random ASCII, random code points, raw code units)
 * joined by `/`, `\`, a space, a comma or nothing; now and then a huge value just under, at or over the
 * 10,000-character argument limit, or far beyond it.
 */
export function hostileText(world: HostileWorkspace): fc.Arbitrary<string> {
  const atom = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_ATOMS, ...worldAtoms(world)) },
    { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
    { weight: 1, arbitrary: codeUnits },
  );
  const joined = fc.tuple(fc.array(atom, { minLength: 1, maxLength: 4 }), fc.constantFrom('', '/', '\\', ' ', ',')).map(([parts, sep]) => parts.join(sep));
  const huge = fc
    .tuple(fc.constantFrom('a', '-', '../', '\0', 'é', '*', '🧭'), fc.constantFrom(9_999, 10_000, 10_001, 70_000, 200_000))
    .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
  return fc.oneof({ weight: 20, arbitrary: joined }, { weight: 1, arbitrary: huge });
}

/** Values of the wrong type for a string, boolean or number argument (JSON-shaped and not). */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constantFrom(null, undefined, '', ' ', [], {}, [[]], ['*'], { pattern: '*' }),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.bigInt(),
  fc.date(),
  fc.constant(() => 'called'),
  fc.constant(Symbol('s')),
  fc.object({ maxDepth: 2, maxKeys: 3 }),
);

/** Keys a model should not send: unknown names, near misses, and the ones that reach a prototype. */
const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'extra', 'PATTERN', 'pattern ', '', '0', 'length', 'then'];

/** How a candidate's entries are wrapped into the input. */
export type Form = 'plain' | 'json' | 'nullPrototype' | 'accessor' | 'protoKey' | 'frozen' | 'proxy' | 'symbolKey' | 'array' | 'classInstance' | 'primitive';

const FORMS: readonly { weight: number; arbitrary: fc.Arbitrary<Form> }[] = [
  { weight: 24, arbitrary: fc.constant('plain') },
  { weight: 4, arbitrary: fc.constant('json') },
  { weight: 1, arbitrary: fc.constant('nullPrototype') },
  { weight: 2, arbitrary: fc.constant('accessor') },
  { weight: 2, arbitrary: fc.constant('protoKey') },
  { weight: 1, arbitrary: fc.constant('frozen') },
  { weight: 1, arbitrary: fc.constant('proxy') },
  { weight: 1, arbitrary: fc.constant('symbolKey') },
  { weight: 1, arbitrary: fc.constant('array') },
  { weight: 1, arbitrary: fc.constant('classInstance') },
  { weight: 1, arbitrary: fc.constant('primitive') },
];

/**
 * Argument objects for a tool whose arguments are `keys`: mostly well shaped (the `required` keys present,
 * the others optional, each value from `valueOf` with an occasional wrong type), sometimes with extra keys,
 * and wrapped in one of the {@link Form}s.
 */
export function argumentObjects(keys: readonly string[], required: readonly string[], valueOf: (key: string) => fc.Arbitrary<unknown>): fc.Arbitrary<Candidate> {
  const entry = (key: string) =>
    fc.oneof({ weight: 9, arbitrary: valueOf(key) }, { weight: 1, arbitrary: wrongType }).map((value) => [key, value] as [string, unknown]);
  const present = keys.map((key) => (required.includes(key) ? entry(key).map((e) => [e]) : fc.option(entry(key), { nil: undefined, freq: 2 }).map((e) => (e ? [e] : []))));
  const extras = fc.oneof(
    { weight: 6, arbitrary: fc.constant([] as [string, unknown][]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), fc.oneof(wrongType, fc.constant({ polluted: 'yes' }))), { minLength: 1, maxLength: 2 }) },
  );
  return fc
    .tuple(fc.tuple(...present), extras, fc.oneof(...FORMS))
    .map(([lists, extra, form]) => {
      const reads = { count: 0 };
      return { input: wrap([...lists.flat(), ...extra], form, reads), form, reads };
    });
}

/** Builds the input for `entries` in `form`. Keys are defined, not assigned, so `__proto__` is an own key, as `JSON.parse` makes it. */
function wrap(entries: readonly [string, unknown][], form: Form, reads: { count: number }): unknown {
  const define = (target: object) => {
    for (const [key, value] of entries) Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    return target;
  };
  switch (form) {
    case 'plain':
      return define({});
    case 'json':
      try {
        return JSON.parse(JSON.stringify(define({})));
      } catch {
        return define({}); // bigint: not JSON
      }
    case 'nullPrototype':
      return define(Object.create(null));
    case 'accessor': {
      const target = define({});
      const [key, value] = entries[0] ?? ['pattern', '*'];
      Object.defineProperty(target, key, {
        enumerable: true,
        configurable: true,
        get() {
          reads.count++;
          return value;
        },
      });
      return target;
    }
    case 'protoKey':
      return Object.defineProperty({}, '__proto__', { value: define({}), enumerable: true, writable: true, configurable: true });
    case 'frozen':
      return Object.freeze(define({}));
    case 'proxy':
      return new Proxy(define({}), {
        get(target, key, receiver) {
          reads.count++;
          return Reflect.get(target, key, receiver);
        },
      });
    case 'symbolKey':
      return Object.assign(define({}), { [Symbol('hidden')]: 'x' });
    case 'array':
      return entries.map(([, value]) => value);
    case 'classInstance':
      return define(new (class Arguments {})());
    case 'primitive':
      return entries[0]?.[1] ?? null;
  }
}
