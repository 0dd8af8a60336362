import { randomBytes } from 'node:crypto';

/** The URIs and CSP source of one panel load, as `Webview.asWebviewUri` and `Webview.cspSource` give them. */
export interface PanelAssets {
  /** `webview.cspSource`: the origin the webview serves local resources from. */
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly codiconUri: string;
  /** A fresh value per load; see {@link makeNonce}. */
  readonly nonce: string;
}

/** 128 random bits, base64: the per-load nonce that lets only the panel's own script run. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The Content-Security-Policy of the panel: nothing by default; scripts only with this load's nonce;
 * styles, fonts and images only from the extension's own webview resources (`media/`). No inline style, no
 * `eval`, no network: a fetched page shown on a card cannot run or load anything even if it were ever
 * parsed as HTML (the script sets all result text with `textContent`).
 */
export function panelCsp(assets: Pick<PanelAssets, 'cspSource' | 'nonce'>): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${assets.nonce}'`,
    `style-src ${assets.cspSource}`,
    `font-src ${assets.cspSource}`,
    `img-src ${assets.cspSource}`,
  ].join('; ');
}

/** The panel's HTML document. The body holds only the empty containers the script fills. */
export function panelHtml(assets: PanelAssets): string {
  const attr = escapeAttribute;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(panelCsp(assets))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(assets.codiconUri)}">
<link rel="stylesheet" href="${attr(assets.styleUri)}">
<title>Scout Results</title>
</head>
<body>
<main aria-label="Scout results">
<p id="empty" class="empty" hidden>No Scout tool calls yet. Run <strong>Scout: Search Text (grep)…</strong> from the Command Palette, or ask an agent to use a Scout tool.</p>
<div id="cards" class="cards" role="feed" aria-label="Scout tool calls, newest first"></div>
</main>
<div id="announcer" class="visually-hidden" role="status" aria-live="polite"></div>
<script nonce="${attr(assets.nonce)}" src="${attr(assets.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
