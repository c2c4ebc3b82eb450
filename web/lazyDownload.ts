/**
 * A download made only when its link is followed (the Parquet tables: the
 * CLI writes only the outputs it is given, and the tab makes only those
 * asked for). Until then the link points nowhere (`#`, so it stays a link to
 * keyboards and screen readers); the first activation makes the Blob, sets
 * it as the link's target, shows its size and follows the link again.
 */
import { setDownload } from './dom.js';

export function setLazyDownload(link: HTMLAnchorElement, make: () => Promise<Blob>, bytesLabel: HTMLElement): void {
  setDownload(link, undefined, bytesLabel);
  link.href = '#';
  let making = false;
  const follow = (event: MouseEvent): void => {
    if (link.href.startsWith('blob:')) return; // made: the browser downloads it
    event.preventDefault();
    if (making) return;
    making = true;
    link.setAttribute('aria-busy', 'true');
    bytesLabel.textContent = 'being made…';
    make().then(
      (blob) => {
        if (link.onclick !== follow) return; // a later run or a cleared page replaced this link's target
        link.removeAttribute('aria-busy');
        setDownload(link, blob, bytesLabel);
        link.click();
      },
      (error: Error) => {
        making = false;
        if (link.onclick !== follow) return;
        link.removeAttribute('aria-busy');
        bytesLabel.textContent = `could not be made: ${error.message}`;
      },
    );
  };
  link.onclick = follow;
}

/** The link back to no target, its maker dropped. */
export function clearLazyDownload(link: HTMLAnchorElement, bytesLabel: HTMLElement): void {
  link.onclick = null;
  link.removeAttribute('aria-busy');
  setDownload(link, undefined, bytesLabel);
}
