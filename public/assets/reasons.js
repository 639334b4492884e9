/*
 * Renders a check reason: the German texts may contain <b>…</b> for emphasis.
 * Everything else is text (DOM text nodes, never innerHTML), so any other
 * markup shows literally and cannot inject anything.
 */
'use strict';
window.MowReasons = {
  render(container, text) {
    let bold = null;
    for (const part of String(text).split(/(<b>|<\/b>)/i)) {
      if (/^<b>$/i.test(part)) {
        if (!bold) bold = document.createElement('strong');
      } else if (/^<\/b>$/i.test(part)) {
        if (bold) container.append(bold);
        bold = null;
      } else if (part !== '') {
        (bold ?? container).append(document.createTextNode(part));
      }
    }
    if (bold) container.append(bold);
  },
};
