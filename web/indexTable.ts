/**
 * The index check's results table: every document checked, a row per match (indexRows.ts holds them compact), drawn
 * one page of PAGE_ROWS rows at a time, so a page turn costs the same whatever the check found.
 */
import { byId, row } from './dom.js';
import { rowCells, type IndexRows } from './indexRows.js';

/**
 * Rows a page of the table shows: a page of 50 documents held 4,826 rows (281,000 px) when each had a hundred
 * matches, and turning it blocked the page for half a second.
 */
export const PAGE_ROWS = 50;
const LABELS = ['Document', 'Matched indexed document', 'Similarity'];

const table = byId<HTMLTableElement>('index-table');
const previous = byId<HTMLButtonElement>('index-previous');
const next = byId<HTMLButtonElement>('index-next');
let rows: IndexRows | undefined;
let page = 0;

/** Shows page `to` (0-based, clamped) of the rows. */
function showPage(to: number): void {
  const count = rows?.length ?? 0;
  const pages = Math.max(1, Math.ceil(count / PAGE_ROWS));
  page = Math.min(Math.max(0, to), pages - 1);
  const from = page * PAGE_ROWS;
  const end = Math.min(from + PAGE_ROWS, count);
  const drawn: HTMLTableRowElement[] = [];
  for (let at = from; at < end; at++) drawn.push(row(rowCells(rows!, at), LABELS, [false, false, true]));
  table.tBodies[0].replaceChildren(...drawn);
  byId('index-page').textContent =
    `Rows ${(from + 1).toLocaleString('en-US')}–${end.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} ` +
    `(page ${(page + 1).toLocaleString('en-US')} of ${pages.toLocaleString('en-US')})`;
  previous.disabled = page === 0;
  next.disabled = page === pages - 1;
  byId<HTMLElement>('index-results').querySelector('nav')!.hidden = pages === 1;
}

/** A pager button that disables itself on the first or last page hands the focus to the other (not to the page). */
function turn(by: number, pressed: HTMLButtonElement, other: HTMLButtonElement): void {
  showPage(page + by);
  if (pressed.disabled && document.activeElement !== other) other.focus();
}

previous.addEventListener('click', () => turn(-1, previous, next));
next.addEventListener('click', () => turn(1, next, previous));

/** The check's rows, from the first page. */
export function showIndexRows(checked: IndexRows): void {
  rows = checked;
  showPage(0);
}

/** No rows held (new files, another index, a new check). */
export function clearIndexRows(): void {
  rows = undefined;
  table.tBodies[0].replaceChildren();
}
