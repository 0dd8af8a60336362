import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { quoteValue, ToolError } from './errors';

// zod/mini loads no locale, so its own messages (used by `describeIssue` for checks without a custom message,
// e.g. an integer bound) would read "Invalid input"; English is what the classic API configures itself.
const locale = en();
z.config(locale);

/**
 * Copies an untrusted argument object into a plain object of data properties.
 *
 * Rejects anything that is not a plain object (arrays, null, class instances, proxies are read through
 * their traps only once), and any accessor (getter/setter) property, so a value cannot change between
 * validation and use (seed 003: "values are snapshotted from data descriptors before use"). Nested arrays
 * are copied the same way one level deep; nested objects are not accepted by any Scout schema.
 *
 * @throws ToolError INVALID_ARGUMENT
 */
export function snapshotArguments(input: unknown): Record<string, unknown> {
  if (input === undefined) return {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ToolError('INVALID_ARGUMENT', 'arguments must be a JSON object.');
  }
  const proto = Object.getPrototypeOf(input);
  if (proto !== Object.prototype && proto !== null) {
    throw new ToolError('INVALID_ARGUMENT', 'arguments must be a plain JSON object.');
  }
  const out: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(input)) {
    if (typeof key === 'symbol') throw new ToolError('INVALID_ARGUMENT', 'arguments must not have symbol keys.');
    const desc = Object.getOwnPropertyDescriptor(input, key);
    if (!desc) continue;
    if (!('value' in desc)) {
      throw new ToolError('INVALID_ARGUMENT', `argument "${key}" must be a plain value, not an accessor property.`);
    }
    // Defined, not assigned: assigning an own "__proto__" key would set the copy's prototype instead, and the
    // schema would then read inherited values (and run their getters) rather than reject the unknown key.
    Object.defineProperty(out, key, { value: Array.isArray(desc.value) ? snapshotArray(key, desc.value) : desc.value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function snapshotArray(key: string, arr: unknown[]): unknown[] {
  const out: unknown[] = [];
  const length = Object.getOwnPropertyDescriptor(arr, 'length')?.value;
  if (typeof length !== 'number') throw new ToolError('INVALID_ARGUMENT', `argument "${key}" must be an array.`);
  for (let i = 0; i < length; i++) {
    const desc = Object.getOwnPropertyDescriptor(arr, i);
    if (desc && !('value' in desc)) {
      throw new ToolError('INVALID_ARGUMENT', `argument "${key}" must hold plain values, not accessor properties.`);
    }
    out.push(desc?.value);
  }
  return out;
}

/**
 * Snapshots `input` (see {@link snapshotArguments}) and validates it with a strict `zod/mini` object schema.
 * Unknown keys, wrong types and failed refinements become one `INVALID_ARGUMENT` error. Unknown keys come
 * first, whatever else is wrong (a misspelt name also leaves its argument missing): the message names them
 * and every argument the schema knows, the required ones marked. Otherwise it names the argument and the
 * rule, in the form `<key>: <what is wrong>`; a schema refinement's own message is used verbatim (so seed
 * contract messages stay exact).
 *
 * @throws ToolError INVALID_ARGUMENT
 */
export function parseArguments<S extends z.ZodMiniObject>(schema: S, input: unknown): z.infer<S> {
  const snapshot = snapshotArguments(input);
  const result = schema.safeParse(snapshot, { reportInput: true });
  if (result.success) return result.data;
  const unknown = result.error.issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown) throw new ToolError('INVALID_ARGUMENT', unknownArguments(unknown.keys, schema));
  const issue = result.error.issues[0]!;
  if (issue.code === 'custom') throw new ToolError('INVALID_ARGUMENT', issue.message);
  const where = issue.path.length ? issue.path.join('.') : 'arguments';
  throw new ToolError('INVALID_ARGUMENT', `${where}: ${describeIssue(issue)}`);
}

/**
 * The message for `keys` that `schema` does not know: `unknown argument "q". The arguments are "queries"
 * (required), "country" and "language". …`. Unknown keys are quoted (`quoteValue`), so a name cannot break the
 * line or bury the advice.
 */
function unknownArguments(keys: readonly string[], schema: z.ZodMiniObject): string {
  const known = Object.entries(schema.shape).map(([name, type]) => `${JSON.stringify(name)}${type._zod.optin === 'optional' ? '' : ' (required)'}`);
  const list = known.length < 2 ? known.join('') : `${known.slice(0, -1).join(', ')} and ${known[known.length - 1]}`;
  const several = keys.length > 1;
  const arguments_ = known.length === 1 ? `The only argument is ${list}` : `The arguments are ${list}`;
  return `unknown argument${several ? 's' : ''} ${keys.map(quoteValue).join(', ')}. ${arguments_}. Remove ${several ? 'them' : 'it'}, or rename ${several ? 'each' : 'it'} to the one meant, and call again.`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      // A message other than the locale's is the schema's own (its `error` map), which says how to give the value.
      if (issue.message !== locale.localeError(issue as Parameters<typeof locale.localeError>[0])) return issue.message;
      return issue.input === undefined ? `is required (${issue.expected}).` : `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}.`;
    default:
      return issue.message.endsWith('.') ? issue.message : `${issue.message}.`;
  }
}
