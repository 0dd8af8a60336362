// Refresh declarations (`<meta http-equiv="refresh">`, the `Refresh` response header), read without a DOM so the
// calling thread can read the header's.

/** A `<meta http-equiv="refresh">` that sends the browser to another URL, after `delaySeconds`. */
export interface MetaRefresh {
  /** Absolute URL (resolved against the document's base). */
  readonly url: string;
  readonly delaySeconds: number;
}

/**
 * The `content` of a refresh declaration, read as HTML's shared declarative refresh steps do: a delay
 * (digits, a fraction ignored), then `;` or `,` or whitespace, an optional `url=` (any case, spaces around
 * `=`), and the URL, unquoted or in single or double quotes (to the closing quote, or the end). Undefined when
 * it is not a valid declaration or names no URL (a plain reload).
 */
export function parseRefresh(content: string): { delaySeconds: number; url: string } | undefined {
  const match = /^[\t\n\f\r ]*(\d*)(\.[\d.]*)?(?:$|[\t\n\f\r ;,]([^]*))/.exec(content);
  if (!match || (match[1] === '' && match[2] === undefined)) return undefined;
  let rest = (match[3] ?? '').replace(/^[\t\n\f\r ]*[;,]?[\t\n\f\r ]*/, '');
  rest = rest.replace(/^url[\t\n\f\r ]*=[\t\n\f\r ]*/i, '');
  const quote = rest[0] === '"' || rest[0] === "'" ? rest[0] : undefined;
  if (quote) rest = rest.slice(1, rest.indexOf(quote, 1) >= 0 ? rest.indexOf(quote, 1) : undefined);
  const url = rest.trim();
  return url === '' ? undefined : { delaySeconds: Number(match[1] || '0'), url };
}

