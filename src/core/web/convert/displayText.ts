import { showControlPictures } from '../../controlCharacters';

/**
 * Page text made safe to show (issue 16): CRLF and lone CR become LF, as HTML's input stream preprocessing
 * does, and every other unsafe character (ESC and the rest of C0 except TAB and LF, DEL, C1, line and
 * paragraph separators, bidi controls; see controlCharacters.ts) becomes a visible control picture or
 * escape. The result cannot move a terminal's cursor, set a window title or hyperlink, reorder text, or start
 * a line inside what was one line, so nothing a server sends can move or forge the header above it.
 */
export function displayText(text: string): string {
  return showControlPictures(text.replace(/\r\n?/g, '\n'), true);
}
