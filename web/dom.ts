/** Small DOM helpers for the page (main thread). Texts from the user's files only ever go in through textContent. */

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html lacks #${id}`);
  return element as T;
}

/** A table row; `labels` name the cells for the phone-width card layout (td::before). */
export function row(
  cells: (string | Node)[],
  labels: readonly string[],
  numeric: readonly boolean[] = [],
): HTMLTableRowElement {
  const tr = document.createElement('tr');
  cells.forEach((cell, i) => {
    const td = document.createElement('td');
    if (typeof cell === 'string') td.textContent = cell;
    else td.append(cell);
    if (numeric[i]) td.className = 'num';
    if (labels[i]) td.dataset.label = labels[i];
    tr.append(td);
  });
  return tr;
}

/** Text from the user's files (an id, a file name) among the page's own words. */
export interface UserText {
  readonly user: string;
}

/**
 * Sets `element`'s text: the page's words as they are, each user text in a
 * `<bdi>`, so a right-to-left override in an id cannot reorder the words
 * after it (and the accessible name stays the plain text).
 */
export function setText(element: HTMLElement, ...parts: (string | UserText)[]): void {
  element.replaceChildren(
    ...parts.map((part) =>
      typeof part === 'string' ? part : Object.assign(document.createElement('bdi'), { textContent: part.user }),
    ),
  );
}

/** Characters that set or change a direction: in a file name or id they could reorder the page's words after them. */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const WORD_WITH_BIDI_CONTROL = /(\S*[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]\S*)/;

/**
 * Sets `element`'s text to a message that may name the user's files or ids (a status, an error, a note): every word
 * holding a direction control goes in a `<bdi>` (setText), so a right-to-left override in a file name reverses
 * neither the page's sentence around it nor the rest of the line.
 */
export function setMessage(element: HTMLElement, message: string): void {
  if (!BIDI_CONTROL.test(message)) {
    element.textContent = message;
    return;
  }
  const parts = message
    .split(WORD_WITH_BIDI_CONTROL)
    .filter((part) => part !== '')
    .map((part): string | UserText => (BIDI_CONTROL.test(part) ? { user: part } : part));
  setText(element, ...parts);
}

/** A note of a skipped file or line, as a list item (its file names isolated: setMessage). */
export function noteItem(note: string): HTMLLIElement {
  const item = document.createElement('li');
  setMessage(item, note);
  return item;
}

export function button(label: string, onClick: () => void, accessibleName?: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  if (accessibleName) b.setAttribute('aria-label', accessibleName);
  b.addEventListener('click', onClick);
  return b;
}

/** Parses an SVG string made by src/plots (no user text in it but numbers and escaped labels) into a container. */
export function showSvg(container: HTMLElement, svg: string): void {
  const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
  container.replaceChildren(document.importNode(parsed, true));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return s < 10 ? s.toFixed(2) : s < 100 ? s.toFixed(1) : Math.round(s).toLocaleString('en');
}

export const int = (n: number): string => n.toLocaleString('en');

/** "1 pair", "2 pairs", "1,024 documents": a count with its noun, singular for one (`many` for irregular plurals). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${int(n)} ${n === 1 ? one : many}`;
}

/** Points a download link at a Blob, releasing the object URL it pointed at before. */
export function setDownload(link: HTMLAnchorElement, blob: Blob | undefined, bytesLabel?: HTMLElement): void {
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  if (blob === undefined) {
    link.removeAttribute('href');
    if (bytesLabel) bytesLabel.textContent = '';
    return;
  }
  link.href = URL.createObjectURL(blob);
  if (bytesLabel) bytesLabel.textContent = formatBytes(blob.size);
}
