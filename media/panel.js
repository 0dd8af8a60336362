// Scout Results panel: the webview side. Plain JS, no framework, no build step.
//
// It mirrors the message protocol in src/vscode/panel/protocol.ts (keep the two in step; PROTOCOL_VERSION
// guards it). Every piece of result data is put into the page with textContent or as an attribute value set
// through the DOM; this file never hands a string to an HTML parser, so result text can never become markup
// or script (test/unit/panel/protocol.test.ts checks for the sinks). The Content-Security-Policy allows only
// this script (by nonce) in any case.
//
// Keyboard (the ARIA feed pattern): the cards are the feed's articles and one of them is the tab stop, so Tab
// from outside lands on a card. ↑/↓ move between cards and rows, Home/End jump to the first and last,
// PageDown/PageUp and Ctrl+↓/↑ move card to card, Enter opens, Escape returns to the card. Focusing the view
// (Focus on Results View) focuses the newest card. Only the focused card's buttons are in the tab order.
// @ts-check
(function () {
  'use strict';

  const PROTOCOL_VERSION = 3;
  // @ts-ignore acquireVsCodeApi is provided by the webview host.
  const vscode = acquireVsCodeApi();

  const cardsEl = /** @type {HTMLElement} */ (document.getElementById('cards'));
  const emptyEl = /** @type {HTMLElement} */ (document.getElementById('empty'));
  const announcer = /** @type {HTMLElement} */ (document.getElementById('announcer'));

  const TOOL_ICONS = { glob: 'files', grep: 'search', workspace_search: 'search-fuzzy', web_search: 'globe', web_fetch: 'cloud-download' };
  const STATUS = {
    running: { icon: 'loading', text: 'Running', spin: true },
    done: { icon: 'pass', text: 'Done' },
    error: { icon: 'error', text: 'Error' },
    cancelled: { icon: 'circle-slash', text: 'Cancelled' },
  };
  /** The button each error fix gets (see `adviseOnError` in src/vscode/panel/errorSummary.ts). */
  const FIXES = { setApiKey: { icon: 'key', label: 'Set API key' } };
  /** How long a Copy button says "Copied", in ms. */
  const COPIED_MS = 2000;

  /** @type {Map<string, any>} card models by run id */
  const models = new Map();
  /** @type {Map<string, HTMLElement>} card elements by run id */
  const cardEls = new Map();
  /** @type {Map<number, {button: HTMLButtonElement | undefined, cardId: string, action: string}>} */
  const pending = new Map();
  let nextRequestId = 1;

  // ---- messages --------------------------------------------------------------------------------------

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'cards':
        renderAll(message.cards);
        break;
      case 'card':
        upsert(message.card);
        break;
      case 'reveal':
        reveal(message.id, message.rerun === true);
        break;
      case 'response':
        settle(message);
        break;
    }
  });

  // A button waiting for its answer is marked aria-disabled rather than disabled, so it keeps the keyboard focus.
  /** @param {any} request @param {HTMLElement} [button] */
  function send(request, button) {
    if (button && button.getAttribute('aria-disabled') === 'true') return;
    const requestId = nextRequestId++;
    pending.set(requestId, { button: /** @type {HTMLButtonElement | undefined} */ (button), cardId: request.runId, action: request.action });
    if (button) button.setAttribute('aria-disabled', 'true');
    vscode.postMessage({ type: 'request', requestId, request });
  }

  /** @param {{requestId: number, ok: boolean, message?: string}} response */
  function settle(response) {
    const entry = pending.get(response.requestId);
    if (!entry) return;
    pending.delete(response.requestId);
    if (entry.button) entry.button.removeAttribute('aria-disabled');
    if (response.ok && entry.action === 'copy') confirmCopy(entry.button);
    const card = cardEls.get(entry.cardId);
    const note = card && card.querySelector('.card-note');
    if (note) {
      note.textContent = response.ok ? '' : response.message || 'That did not work.';
      note.hidden = response.ok;
    }
    if (!response.ok) announce(response.message || 'That did not work.');
  }

  /** Shows "Copied" on a Copy button for {@link COPIED_MS} and says so to a screen reader. */
  function confirmCopy(button) {
    announce('Copied the result to the clipboard.');
    if (!button || !button.isConnected) return;
    const label = button.querySelector('.action-label');
    const glyph = button.querySelector('.codicon');
    if (!label || !glyph) return;
    label.textContent = 'Copied';
    label.classList.remove('visually-hidden');
    glyph.className = 'codicon codicon-check';
    button.classList.add('confirmed');
    setTimeout(() => {
      label.textContent = 'Copy';
      label.classList.add('visually-hidden');
      glyph.className = 'codicon codicon-copy';
      button.classList.remove('confirmed');
    }, COPIED_MS);
  }

  // ---- rendering -------------------------------------------------------------------------------------

  /** @param {any[]} cards */
  function renderAll(cards) {
    const focusedId = focusedCardId();
    const stopId = tabStopCardId();
    models.clear();
    cardEls.clear();
    cardsEl.replaceChildren();
    for (const card of cards) {
      models.set(card.id, card);
      const el = renderCard(card);
      cardEls.set(card.id, el);
      cardsEl.append(el);
    }
    const keep = cardEls.get(focusedId || stopId || '');
    if (keep) makeTabStop(keep);
    afterListChange();
    if (focusedId && keep) keep.focus();
  }

  /** @param {any} card */
  function upsert(card) {
    const before = models.get(card.id);
    models.set(card.id, card);
    const el = renderCard(card);
    const old = cardEls.get(card.id);
    cardEls.set(card.id, el);
    if (old) {
      const hadFocus = old.contains(document.activeElement);
      if (old.tabIndex === 0) el.tabIndex = 0;
      old.replaceWith(el);
      if (hadFocus) el.focus();
    } else {
      cardsEl.prepend(el);
    }
    afterListChange();
    if (before && before.status === 'running' && card.status !== 'running') announce(cardLabel(card));
  }

  function afterListChange() {
    emptyEl.hidden = cardEls.size > 0;
    const all = [...cardsEl.children];
    all.forEach((el, i) => {
      el.setAttribute('aria-posinset', String(i + 1));
      el.setAttribute('aria-setsize', String(all.length));
    });
    if (all.length && !all.some((el) => /** @type {HTMLElement} */ (el).tabIndex === 0)) makeTabStop(/** @type {HTMLElement} */ (all[0]));
  }

  /**
   * Shows a card from its header (a tall card is never shown from its bottom), marks it for a moment and, when
   * the panel has the keyboard, focuses it; never pulls focus out of the editor. A rerun is announced and
   * leaves the focus on the Rerun button it came from: Enter pressed again reruns again, where on the new
   * card it would open that card's result (tester: repeated Enter typed into the opened document).
   * @param {string} id @param {boolean} rerun
   */
  function reveal(id, rerun) {
    const el = cardEls.get(id);
    if (!el) return;
    if (!rerun) makeTabStop(el);
    if (document.hasFocus() && !rerun) el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'start' });
    el.classList.add('revealed');
    setTimeout(() => el.classList.remove('revealed'), 1500);
    const model = models.get(id);
    if (rerun && model) announce(`Rerun started: ${cardLabel(model)}`);
  }

  /** @param {any} card */
  function renderCard(card) {
    const el = h('article', `card status-${card.status}`);
    el.dataset.id = card.id;
    el.tabIndex = -1;
    el.setAttribute('aria-label', cardLabel(card));
    if (card.status === 'running') el.setAttribute('aria-busy', 'true');

    const head = h('div', 'card-head');
    head.append(icon(TOOL_ICONS[card.tool] || 'tools'), h('span', 'tool', card.tool));
    const args = h('span', 'args');
    for (const arg of card.args) {
      const a = h('span', 'arg');
      a.append(h('span', 'arg-name', arg.name), h('span', 'arg-value', arg.value));
      args.append(a);
    }
    head.append(args);
    const origin = h('span', `origin origin-${card.source}`, card.source === 'agent' ? 'agent' : 'you');
    origin.title = card.source === 'agent' ? 'Called by a language model' : 'Run from a command';
    head.append(origin);
    el.append(head);

    const meta = h('div', 'card-meta');
    const st = STATUS[card.status] || STATUS.done;
    const status = h('span', 'status');
    status.append(icon(st.icon, st.spin), h('span', 'status-text', card.status === 'running' && card.progress ? `${st.text}: ${card.progress}` : st.text));
    meta.append(status);
    const duration = h('span', 'duration', formatDuration(card));
    duration.title = `Started ${new Date(card.startedAt).toLocaleString()}`;
    meta.append(duration);
    for (const count of card.counts) {
      const c = h('span', 'count', count.text);
      c.dataset.kind = count.kind;
      c.title = count.description;
      meta.append(c);
    }
    if (card.truncated) {
      const flag = h('span', 'flag');
      flag.append(icon('warning'), h('span', '', 'truncated'));
      flag.title = card.hasFullResult ? 'The tool hit a limit: Open full result has the rest.' : 'The tool hit a limit: a narrower search has the rest.';
      meta.append(flag);
    }
    meta.append(actions(card));
    el.append(meta);

    const note = h('div', 'card-note');
    note.hidden = true;
    note.setAttribute('role', 'alert');
    el.append(note);

    if (card.error) el.append(renderError(card));
    const body = renderBody(card);
    if (body) el.append(body);
    return el;
  }

  /** The error box: a line for the person, then the model's message and the code, then the fix if any. */
  function renderError(card) {
    const error = card.error;
    const box = h('div', 'error');
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', card.status === 'cancelled' ? 'Cancelled' : 'Error');
    const summary = h('div', 'error-summary');
    summary.append(icon(card.status === 'cancelled' ? 'circle-slash' : 'error'), h('span', 'error-summary-text', error.summary));
    box.append(summary);
    const detail = h('div', 'error-detail');
    detail.append(h('span', 'error-message', error.message), h('span', 'error-code', error.code));
    box.append(detail);
    const fix = FIXES[error.fix];
    if (fix) {
      const b = button(fix.icon, fix.label, 'fix', card);
      b.classList.add('fix');
      box.append(b);
    }
    return box;
  }

  /** @param {any} card */
  function actions(card) {
    const bar = h('div', 'card-actions');
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', `Actions for ${card.tool}`);
    if (card.status === 'running') bar.append(button('stop-circle', 'Cancel', 'cancel', card));
    if (card.hasFullResult) bar.append(button('go-to-file', 'Open full result', 'openFull', card));
    if (card.hasText) bar.append(button('copy', 'Copy', 'copy', card));
    if (card.status !== 'running') bar.append(button('refresh', 'Rerun', 'rerun', card));
    for (const label of bar.querySelectorAll('.action-label')) label.classList.add('visually-hidden');
    return bar;
  }

  /** A compact icon button, as in VS Code's own toolbars: its label is its tooltip and accessible name. */
  function button(iconName, label, action, card) {
    const b = /** @type {HTMLButtonElement} */ (h('button', 'action'));
    b.type = 'button';
    b.tabIndex = -1;
    b.dataset.action = action;
    b.title = label;
    b.setAttribute('aria-label', `${label} (${card.tool})`);
    b.append(icon(iconName), h('span', 'action-label', label));
    return b;
  }

  /** @param {any} card */
  function renderBody(card) {
    const body = card.body;
    switch (body.kind) {
      case 'files':
        return renderFiles(card, body);
      case 'sources':
        return renderSources(card, body);
      case 'page':
        return renderPage(card, body);
      case 'text':
        return excerptNode(body.text, 'First lines of the result');
      default:
        return undefined;
    }
  }

  function renderFiles(card, body) {
    const wrap = h('div', 'body');
    if (body.files.length === 0) {
      wrap.append(h('p', 'muted', card.tool === 'glob' ? 'No files found.' : 'No matches found.'));
      return wrap;
    }
    const list = h('ul', 'files');
    list.setAttribute('aria-label', card.tool === 'glob' ? 'Files' : 'Files and matching lines');
    for (const file of body.files) {
      const li = h('li', 'file');
      const lineCount = file.lines.length ? `, ${file.lines.length} matching line${file.lines.length === 1 ? '' : 's'} listed` : '';
      const row = link('row file-row', file.target, card.id, `Open ${file.path}${lineCount}`);
      row.append(icon('file'), h('span', 'path', file.path));
      if (file.lines.length) row.append(h('span', 'badge', String(file.lines.length)));
      li.append(row);
      if (file.lines.length) {
        const lines = h('ul', 'lines');
        lines.setAttribute('aria-label', `Matching lines in ${file.path}`);
        for (const line of file.lines) {
          const lineLi = h('li');
          const lineRow = link('row line-row', line.target, card.id, `Open ${file.path} at line ${line.lineNumber}: ${line.preview}`);
          lineRow.append(h('span', 'line-no', String(line.lineNumber)), previewNode(line.preview, line.highlights));
          lineLi.append(lineRow);
          lines.append(lineLi);
        }
        li.append(lines);
      }
      list.append(li);
    }
    wrap.append(list);
    if (body.more) wrap.append(moreNote(card, body.more));
    return wrap;
  }

  function renderSources(card, body) {
    const wrap = h('div', 'body');
    for (const answer of body.answers) {
      const a = h('div', 'answer');
      if (answer.query) a.append(h('div', 'answer-query', answer.query));
      a.append(h('p', 'answer-text', answer.text));
      wrap.append(a);
    }
    if (body.sources.length === 0 && body.answers.length === 0) wrap.append(h('p', 'muted', 'No results found.'));
    const list = h('ol', 'sources');
    list.setAttribute('aria-label', 'Sources');
    for (const source of body.sources) {
      const li = h('li', 'source');
      const row = link('row source-row', source.target, card.id, `Open ${source.title} in the browser: ${source.url}`);
      row.append(icon('link-external'), h('span', 'title', source.title));
      li.append(row);
      if (source.title !== source.url) li.append(h('div', 'url', source.url));
      if (source.snippet) li.append(h('p', 'snippet', source.snippet));
      const facts = [source.provider, source.publishedAt].filter(Boolean).join(' · ');
      if (facts) li.append(h('div', 'provider', facts));
      list.append(li);
    }
    if (body.sources.length) wrap.append(list);
    if (body.more) wrap.append(moreNote(card, body.more));
    return wrap;
  }

  function renderPage(card, body) {
    const wrap = h('div', 'body');
    const row = link('row url-row', body.target, card.id, `Open ${body.finalUrl} in the browser`);
    row.append(icon('link-external'), h('span', 'url', body.finalUrl));
    wrap.append(row);
    const facts = h('dl', 'facts');
    const fact = (name, value) => {
      if (value === undefined || value === '') return;
      facts.append(h('dt', '', name), h('dd', '', value));
    };
    fact('Status', body.status !== undefined ? `HTTP ${body.status}` : undefined);
    fact('Type', body.contentType);
    fact('Size', [body.bytes !== undefined ? `${body.bytes.toLocaleString()} bytes` : '', body.chars !== undefined ? `${body.chars.toLocaleString()} characters` : ''].filter(Boolean).join(', '));
    fact('Format', body.format);
    fact('Extracted', body.extracted === undefined ? undefined : body.extracted ? 'main content only' : 'no (whole page)');
    fact('Truncated', body.truncated === undefined ? undefined : body.truncated ? 'yes' : 'no');
    if (body.redirectTo) {
      const to = link('row url-row', body.redirectTo.target, card.id, `Open the redirect target ${body.redirectTo.url} in the browser`);
      to.append(icon('link-external'), h('span', 'url', body.redirectTo.url));
      facts.append(h('dt', '', 'Redirects to'), wrapIn('dd', to));
    }
    wrap.append(facts);
    if (body.excerpt) wrap.append(excerptNode(body.excerpt, 'First lines of the page as Markdown'));
    return wrap;
  }

  /**
   * A text excerpt, shown whole (the host bounds it to EXCERPT_LINES and EXCERPT_CHARS): a box that scrolled
   * would need a keyboard stop of its own in every card to be read (WCAG 2.1.1, axe's scrollable-region-focusable).
   */
  function excerptNode(text, label) {
    const pre = h('pre', 'excerpt', text);
    pre.setAttribute('aria-label', label);
    return pre;
  }

  function moreNote(card, text) {
    const p = h('p', 'more');
    p.append(h('span', 'more-text', `${text}. `));
    if (card.hasFullResult) {
      const b = /** @type {HTMLButtonElement} */ (h('button', 'link-button', 'Open full result'));
      b.type = 'button';
      b.tabIndex = -1;
      b.dataset.action = 'openFull';
      b.setAttribute('aria-label', `Open the full result (${card.tool})`);
      p.append(b);
    }
    return p;
  }

  /** The preview text with each highlight range in a <mark>. */
  function previewNode(text, highlights) {
    const span = h('span', 'preview');
    let at = 0;
    for (const range of highlights || []) {
      if (range.start < at || range.end <= range.start || range.end > text.length) continue;
      span.append(text.slice(at, range.start), h('mark', '', text.slice(range.start, range.end)));
      at = range.end;
    }
    span.append(text.slice(at));
    return span;
  }

  function link(className, target, cardId, label) {
    const a = h('a', className);
    a.setAttribute('role', 'link');
    a.tabIndex = -1;
    a.dataset.target = String(target);
    a.dataset.card = cardId;
    a.setAttribute('aria-label', label);
    a.title = label;
    return a;
  }

  function wrapIn(tag, child) {
    const el = h(tag, '');
    el.append(child);
    return el;
  }

  /**
   * An element with a class and, optionally, text (set with textContent).
   * @param {string} tag @param {string} className @param {string} [text]
   */
  function h(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  function icon(name, spin) {
    const i = h('span', `codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`);
    i.setAttribute('aria-hidden', 'true');
    return i;
  }

  function cardLabel(card) {
    const args = card.args.map((a) => `${a.name} ${a.value}`).join(', ');
    const st = (STATUS[card.status] || STATUS.done).text;
    const counts = card.counts.map((c) => c.text).join(', ');
    return [`${card.tool} ${args}`, st, counts, card.truncated ? 'truncated' : '', card.error ? card.error.summary : ''].filter(Boolean).join('. ');
  }

  function formatDuration(card) {
    const ms = card.status === 'running' ? Math.max(0, Date.now() - card.startedAt) : card.durationMs;
    if (ms === undefined) return '';
    if (ms < 1000) return `${Math.round(ms)} ms`;
    if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
    return `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
  }

  // Running cards show their elapsed time.
  setInterval(() => {
    for (const [id, card] of models) {
      if (card.status !== 'running') continue;
      const d = cardEls.get(id)?.querySelector('.duration');
      if (d) d.textContent = formatDuration(card);
    }
  }, 1000);

  function announce(text) {
    announcer.textContent = '';
    setTimeout(() => (announcer.textContent = text), 50);
  }

  // ---- interaction -----------------------------------------------------------------------------------

  cardsEl.addEventListener('click', (event) => {
    const el = /** @type {HTMLElement} */ (event.target);
    const card = el.closest('.card');
    if (!card) return;
    const id = /** @type {HTMLElement} */ (card).dataset.id;
    const actionEl = /** @type {HTMLElement | null} */ (el.closest('[data-action]'));
    if (actionEl) {
      event.preventDefault();
      send({ action: actionEl.dataset.action, runId: id }, actionEl);
      return;
    }
    const row = /** @type {HTMLElement | null} */ (el.closest('.row'));
    if (row) {
      event.preventDefault();
      send({ action: 'openTarget', runId: id, target: Number(row.dataset.target) });
    }
  });

  cardsEl.addEventListener('keydown', (event) => {
    const el = /** @type {HTMLElement} */ (event.target);
    const items = navigable();
    const index = items.indexOf(el);
    const move = (/** @type {HTMLElement | undefined} */ next) => {
      if (next) focusItem(next);
      event.preventDefault();
    };
    const cards = /** @type {HTMLElement[]} */ ([...cardsEl.children]);
    const card = /** @type {HTMLElement | null} */ (el.closest('.card'));
    const at = card ? cards.indexOf(card) : -1;
    const nextCard = () => move(cards[Math.min(cards.length - 1, at + 1)]);
    // From inside a card, back goes to that card first; from a card, to the one before.
    const previousCard = () => move(card && card !== el ? card : cards[Math.max(0, at - 1)]);
    switch (event.key) {
      case 'ArrowDown':
        if (event.ctrlKey || event.metaKey) nextCard();
        else if (index >= 0) move(items[Math.min(items.length - 1, index + 1)]);
        break;
      case 'ArrowUp':
        if (event.ctrlKey || event.metaKey) previousCard();
        else if (index >= 0) move(items[Math.max(0, index - 1)]);
        break;
      case 'PageDown':
        if (at >= 0) nextCard();
        break;
      case 'PageUp':
        if (at >= 0) previousCard();
        break;
      case 'Home':
        if (index >= 0) move(items[0]);
        break;
      case 'End':
        if (index >= 0) move(items[items.length - 1]);
        break;
      case 'Enter':
      case ' ': {
        if (el.classList.contains('row')) {
          event.preventDefault();
          el.click();
        } else if (el.classList.contains('card') && event.key === 'Enter') {
          event.preventDefault();
          const model = models.get(el.dataset.id || '');
          if (model && model.hasFullResult) send({ action: 'openFull', runId: model.id, keepFocus: true });
        }
        break;
      }
      case 'Escape': {
        if (card && card !== el) {
          event.preventDefault();
          card.focus();
        }
        break;
      }
    }
  });

  // The card holding focus is the tab stop and puts its buttons in the tab order; other cards' buttons stay
  // out of it, so Tab leaves the list after one card's actions instead of walking every button of every card.
  cardsEl.addEventListener('focusin', (event) => {
    const card = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest('.card'));
    if (card) makeTabStop(card);
  });

  // When the keyboard leaves the panel, every button leaves the tab order again, so Tab or Shift+Tab from
  // outside lands on the tab-stop card, not on a button.
  window.addEventListener('blur', () => {
    for (const b of cardsEl.querySelectorAll('button')) /** @type {HTMLElement} */ (b).tabIndex = -1;
  });

  // Focusing the view (Focus on Results View, or the view's tab) gives the webview window the focus with
  // nothing inside it focused: the newest card takes it. A click focuses what it hits instead.
  let pointerDown = false;
  window.addEventListener('pointerdown', () => (pointerDown = true), true);
  window.addEventListener('pointerup', () => setTimeout(() => (pointerDown = false), 0), true);
  window.addEventListener('focus', () => {
    setTimeout(() => {
      const active = document.activeElement;
      if (pointerDown || !document.hasFocus() || (active && active !== document.body && active !== document.documentElement)) return;
      const newest = /** @type {HTMLElement | null} */ (cardsEl.firstElementChild);
      if (newest) focusItem(newest);
    }, 0);
  });

  /** Cards and their rows, in document order: what the arrow keys move between. */
  function navigable() {
    return /** @type {HTMLElement[]} */ ([...cardsEl.querySelectorAll('.card, .row')]);
  }

  /** Focuses a card or row and scrolls it into view; a card taller than the panel is shown from its header. */
  function focusItem(el) {
    el.focus({ preventScroll: true });
    const tall = el.classList.contains('card') && el.getBoundingClientRect().height > window.innerHeight;
    el.scrollIntoView({ block: tall ? 'start' : 'nearest' });
  }

  /** Makes `card` the one card in the tab order, with its buttons. Rows are reached with the arrow keys. */
  function makeTabStop(card) {
    for (const c of cardEls.values()) {
      const on = c === card;
      c.tabIndex = on ? 0 : -1;
      c.querySelectorAll('button').forEach((b) => (/** @type {HTMLElement} */ (b).tabIndex = on ? 0 : -1));
    }
  }

  function tabStopCardId() {
    for (const [id, el] of cardEls) if (el.tabIndex === 0) return id;
    return undefined;
  }

  function focusedCardId() {
    const active = document.activeElement;
    const card = active && active.closest ? active.closest('.card') : null;
    return card ? /** @type {HTMLElement} */ (card).dataset.id : undefined;
  }

  // "No Scout tool calls yet" waits for the host's list: shown before it, it flashed over a restored history.
  vscode.postMessage({ type: 'ready', version: PROTOCOL_VERSION });
})();
