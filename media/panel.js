// Scout Results panel: the webview side. Plain JS, no framework, no build step.
//
// It mirrors the message protocol in src/vscode/panel/protocol.ts (keep the two in step; PROTOCOL_VERSION
// guards it). Every piece of result data is put into the page with textContent or as an attribute value set
// through the DOM; this file never hands a string to an HTML parser, so result text can never become markup
// or script (test/unit/panel/protocol.test.ts checks for the sinks). The Content-Security-Policy allows only
// this script (by nonce) in any case.
// @ts-check
(function () {
  'use strict';

  const PROTOCOL_VERSION = 1;
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

  /** @type {Map<string, any>} card models by run id */
  const models = new Map();
  /** @type {Map<string, HTMLElement>} card elements by run id */
  const cardEls = new Map();
  /** @type {Map<number, {button: HTMLButtonElement | undefined, cardId: string}>} */
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
        reveal(message.id);
        break;
      case 'response':
        settle(message);
        break;
    }
  });

  /** @param {any} request */
  function send(request, button) {
    const requestId = nextRequestId++;
    pending.set(requestId, { button, cardId: request.runId });
    if (button) button.disabled = true;
    vscode.postMessage({ type: 'request', requestId, request });
  }

  /** @param {{requestId: number, ok: boolean, message?: string}} response */
  function settle(response) {
    const entry = pending.get(response.requestId);
    if (!entry) return;
    pending.delete(response.requestId);
    if (entry.button) entry.button.disabled = false;
    const card = cardEls.get(entry.cardId);
    const note = card && card.querySelector('.card-note');
    if (note) {
      note.textContent = response.ok ? '' : response.message || 'That did not work.';
      note.hidden = response.ok;
    }
    if (!response.ok) announce(response.message || 'That did not work.');
  }

  // ---- rendering -------------------------------------------------------------------------------------

  /** @param {any[]} cards */
  function renderAll(cards) {
    const focusedId = focusedCardId();
    models.clear();
    cardEls.clear();
    cardsEl.replaceChildren();
    for (const card of cards) {
      models.set(card.id, card);
      const el = renderCard(card);
      cardEls.set(card.id, el);
      cardsEl.append(el);
    }
    afterListChange();
    if (focusedId && cardEls.has(focusedId)) /** @type {HTMLElement} */ (cardEls.get(focusedId)).focus();
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
    ensureTabStop();
  }

  /** @param {string} id */
  function reveal(id) {
    const el = cardEls.get(id);
    if (!el) return;
    makeTabStop(el);
    el.scrollIntoView({ block: 'nearest' });
    el.classList.add('revealed');
    setTimeout(() => el.classList.remove('revealed'), 1500);
    // Take the keyboard only when the panel already has it; never pull focus out of the editor.
    if (document.hasFocus()) el.focus();
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
    status.append(icon(st.icon, st.spin), h('span', '', card.status === 'running' && card.progress ? `${st.text}: ${card.progress}` : st.text));
    meta.append(status);
    const duration = h('span', 'duration', formatDuration(card));
    duration.title = `Started ${new Date(card.startedAt).toLocaleString()}`;
    meta.append(duration);
    for (const count of card.counts) meta.append(h('span', 'count', `${count.value.toLocaleString()} ${unit(count)}`));
    if (card.truncated) {
      const flag = h('span', 'flag', 'truncated');
      flag.title = 'The tool hit a limit: the full result, or a narrower search, has the rest.';
      meta.append(flag);
    }
    meta.append(actions(card));
    el.append(meta);

    const note = h('div', 'card-note');
    note.hidden = true;
    note.setAttribute('role', 'alert');
    el.append(note);

    if (card.error) {
      const err = h('div', 'error');
      err.append(icon(card.status === 'cancelled' ? 'circle-slash' : 'error'), h('span', 'error-code', card.error.code), h('span', 'error-message', card.error.message));
      el.append(err);
    }
    const body = renderBody(card);
    if (body) el.append(body);
    return el;
  }

  /** @param {any} card */
  function actions(card) {
    const bar = h('div', 'card-actions');
    bar.setAttribute('role', 'toolbar');
    bar.setAttribute('aria-label', `Actions for ${card.tool}`);
    if (card.status === 'running') bar.append(button('stop-circle', 'Cancel', 'cancel', card));
    if (card.hasText) {
      bar.append(button('go-to-file', 'Open full result', 'openFull', card));
      bar.append(button('copy', 'Copy', 'copy', card));
    }
    if (card.status !== 'running') bar.append(button('refresh', 'Rerun', 'rerun', card));
    return bar;
  }

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
      case 'text': {
        const pre = h('pre', 'excerpt', body.text);
        return pre;
      }
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
    list.setAttribute('aria-label', 'Results');
    for (const file of body.files) {
      const li = h('li', 'file');
      const row = link('row file-row', file.target, card.id, `Open ${file.path}`);
      row.append(icon('file'), h('span', 'path', file.path));
      if (file.lines.length) row.append(h('span', 'badge', String(file.lines.length)));
      li.append(row);
      if (file.lines.length) {
        const lines = h('ul', 'lines');
        for (const line of file.lines) {
          const lineLi = h('li');
          const lineRow = link('row line-row', line.target, card.id, `Open ${file.path} at line ${line.lineNumber}: ${line.preview}`);
          lineRow.append(h('span', 'line-no', String(line.lineNumber)), previewNode(line.preview, line.highlight));
          lineLi.append(lineRow);
          lines.append(lineLi);
        }
        li.append(lines);
      }
      list.append(li);
    }
    wrap.append(list);
    if (body.omitted > 0) wrap.append(moreNote(card, `${body.omitted.toLocaleString()} more ${card.tool === 'glob' ? 'files' : 'matches'} not shown.`));
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
    if (body.omitted > 0) wrap.append(moreNote(card, `${body.omitted} more sources not shown.`));
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
    if (body.excerpt) {
      const pre = h('pre', 'excerpt', body.excerpt);
      pre.setAttribute('aria-label', 'First lines of the page as Markdown');
      wrap.append(pre);
    }
    return wrap;
  }

  function moreNote(card, text) {
    const p = h('p', 'more');
    p.append(h('span', '', `${text} `));
    if (card.hasText) {
      const b = /** @type {HTMLButtonElement} */ (h('button', 'link-button', 'Open full result'));
      b.type = 'button';
      b.tabIndex = -1;
      b.dataset.action = 'openFull';
      p.append(b);
    }
    return p;
  }

  function previewNode(text, highlight) {
    const span = h('span', 'preview');
    if (highlight && highlight.end > highlight.start && highlight.end <= text.length) {
      span.append(text.slice(0, highlight.start), h('mark', '', text.slice(highlight.start, highlight.end)), text.slice(highlight.end));
    } else {
      span.textContent = text;
    }
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

  function unit(count) {
    const singular = { matches: 'match', files: 'file', skipped: 'skipped', sources: 'source' }[count.label];
    return count.value === 1 ? singular : count.label;
  }

  function cardLabel(card) {
    const args = card.args.map((a) => `${a.name} ${a.value}`).join(', ');
    const st = (STATUS[card.status] || STATUS.done).text;
    const counts = card.counts.map((c) => `${c.value} ${unit(c)}`).join(', ');
    return [`${card.tool} ${args}`, st, counts, card.truncated ? 'truncated' : '', card.error ? card.error.message : ''].filter(Boolean).join('. ');
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
    const actionEl = /** @type {HTMLButtonElement | null} */ (el.closest('[data-action]'));
    if (actionEl) {
      event.preventDefault();
      send({ action: actionEl.dataset.action, runId: id }, actionEl);
      return;
    }
    const row = /** @type {HTMLElement | null} */ (el.closest('.row'));
    if (row) {
      event.preventDefault();
      makeTabStop(row);
      send({ action: 'openTarget', runId: id, target: Number(row.dataset.target) });
    }
  });

  cardsEl.addEventListener('keydown', (event) => {
    const el = /** @type {HTMLElement} */ (event.target);
    const items = navigable();
    const index = items.indexOf(el);
    const move = (to) => {
      const next = items[Math.max(0, Math.min(items.length - 1, to))];
      if (next) {
        makeTabStop(next);
        next.focus();
        next.scrollIntoView({ block: 'nearest' });
      }
      event.preventDefault();
    };
    switch (event.key) {
      case 'ArrowDown':
        if (index >= 0) move(index + 1);
        break;
      case 'ArrowUp':
        if (index >= 0) move(index - 1);
        break;
      case 'Home':
        if (index >= 0) move(0);
        break;
      case 'End':
        if (index >= 0) move(items.length - 1);
        break;
      case 'Enter':
      case ' ': {
        if (el.classList.contains('row')) {
          event.preventDefault();
          el.click();
        } else if (el.classList.contains('card') && event.key === 'Enter') {
          event.preventDefault();
          const card = models.get(el.dataset.id || '');
          if (card && card.hasText) send({ action: 'openFull', runId: card.id });
        }
        break;
      }
      case 'Escape': {
        const card = el.closest('.card');
        if (card && card !== el) {
          event.preventDefault();
          /** @type {HTMLElement} */ (card).focus();
        }
        break;
      }
    }
  });

  // The card holding focus puts its buttons in the tab order; other cards' buttons stay out of it, so Tab
  // leaves the list after one card's actions instead of walking every button of every card.
  cardsEl.addEventListener('focusin', (event) => {
    const el = /** @type {HTMLElement} */ (event.target);
    const card = /** @type {HTMLElement | null} */ (el.closest('.card'));
    for (const c of cardEls.values()) {
      const inside = c === card;
      c.querySelectorAll('button').forEach((b) => (b.tabIndex = inside ? 0 : -1));
    }
    if (el.classList.contains('card') || el.classList.contains('row')) makeTabStop(el);
  });

  /** Cards and their rows, in document order: what the arrow keys move between. */
  function navigable() {
    return /** @type {HTMLElement[]} */ ([...cardsEl.querySelectorAll('.card, .row')]);
  }

  function makeTabStop(el) {
    for (const item of navigable()) item.tabIndex = item === el ? 0 : -1;
  }

  function ensureTabStop() {
    const items = navigable();
    if (items.length && !items.some((i) => i.tabIndex === 0)) items[0].tabIndex = 0;
  }

  function focusedCardId() {
    const active = document.activeElement;
    const card = active && active.closest ? active.closest('.card') : null;
    return card ? /** @type {HTMLElement} */ (card).dataset.id : undefined;
  }

  emptyEl.hidden = false;
  vscode.postMessage({ type: 'ready', version: PROTOCOL_VERSION });
})();
