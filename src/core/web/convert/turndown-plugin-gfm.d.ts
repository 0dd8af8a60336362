// turndown-plugin-gfm 1.0.2 ships no types; these are the plugins Scout uses.
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const strikethrough: TurndownService.Plugin;
  export const taskListItems: TurndownService.Plugin;
}
