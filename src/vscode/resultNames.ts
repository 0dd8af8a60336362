// The names of Scout's result documents (see resultFiles.ts); no `vscode` import, so unit tests reach it.

/**
 * The file name of call number `n`'s result, from its first line (`spillHeading` or `modelTextHeading`):
 * the tool, its first quoted argument, the size's first count and `n`, in URI-safe characters, e.g.
 * `grep-needle-300-matches-3.txt` or `web_fetch-https-example-org-the-text-the-model-saw-7.md`. Its tab shows
 * this name, so two calls of the same pattern differ by their count or number.
 */
export function resultName(title: string, tool: string, n: number, extension: 'txt' | 'md'): string {
  const slug = (s: string, max: number) =>
    s
      .replace(/[^A-Za-z0-9_.]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, max)
      .replace(/[-.]+$/, '');
  const rest = title.startsWith(`Scout ${tool} `) ? title.slice(`Scout ${tool} `.length) : title;
  const argument = /"((?:[^"\\]|\\.)*)"/.exec(rest)?.[1] ?? '';
  const modelText = rest.endsWith(': the text the model saw');
  const size = modelText ? 'the text the model saw' : (/: ([\d,]+ [A-Za-z]+)[^:]*, (?:complete|incomplete) result/.exec(rest)?.[1] ?? '').replace(/,/g, '');
  return `${[tool, slug(argument, 32), slug(size, 24), String(n)].filter(Boolean).join('-')}.${extension}`;
}

/** The call number in a name made by {@link resultName}; undefined for any other name. */
export function resultNumber(name: string): number | undefined {
  const match = /-(\d+)\.(?:txt|md)$/.exec(name);
  return match ? Number(match[1]) : undefined;
}
