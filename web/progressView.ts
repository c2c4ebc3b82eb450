/** The run's progress: a bar per stage with what is done and, once it can be estimated, the time left. */
import { formatBytes, formatSeconds, int } from './dom.js';
import type { StageProgress } from './protocol.js';

const STAGE_LABELS: Record<string, string> = {
  'backend setup': 'Preparing the signing backend',
  signing: 'Reading, exact pre-pass, shingling, signing',
  'reference set': 'Reading and signing the reference set',
  'reference banding': 'Banding the reference set',
  banding: 'Banding signatures into buckets',
  'load shingles': 'Re-reading for exact Jaccard',
  decontamination: 'Matching the reference set',
  'banding without contaminated': 'Banding again without matched documents',
  verification: 'Verifying candidate pairs',
  clustering: 'Clustering',
  assignment: 'Choosing the kept documents',
  writing: 'Making the downloads',
};

export class ProgressView {
  private readonly items = new Map<string, { li: HTMLLIElement; bar: HTMLProgressElement; text: HTMLSpanElement; started: number }>();
  private current = '';

  /** `list` shows a line per stage; `onStage` hears the running stage's label (the page's status line). */
  constructor(
    private readonly list: HTMLOListElement,
    private readonly onStage: (label: string) => void,
  ) {}

  reset(): void {
    this.items.clear();
    this.current = '';
    this.list.replaceChildren();
    this.list.hidden = false;
  }

  stop(): void {
    for (const item of this.items.values()) item.li.classList.add('done');
  }

  update(p: StageProgress): void {
    let item = this.items.get(p.stage);
    if (item === undefined) {
      const previous = this.items.get(this.current);
      if (previous !== undefined) {
        previous.li.classList.add('done');
        previous.bar.value = previous.bar.max;
        previous.text.textContent = `done in ${formatSeconds(performance.now() - previous.started)} s`;
      }
      const li = document.createElement('li');
      const label = document.createElement('span');
      label.textContent = STAGE_LABELS[p.stage] ?? p.stage;
      const bar = document.createElement('progress');
      bar.setAttribute('aria-label', label.textContent);
      const text = document.createElement('span');
      li.dataset.stage = p.stage;
      li.append(label, bar, text);
      this.list.append(li);
      item = { li, bar, text, started: performance.now() };
      this.items.set(p.stage, item);
    }
    this.current = p.stage;
    const elapsed = performance.now() - item.started;
    item.bar.max = Math.max(1, p.total);
    item.bar.value = Math.min(p.done, p.total);
    const fraction = p.total > 0 ? p.done / p.total : 0;
    const amount = p.unit === 'bytes' ? `${formatBytes(p.done)} of ${formatBytes(p.total)}` : p.unit === 'steps' ? '' : `${int(p.done)} of ${int(p.total)} ${p.unit}`;
    const eta = fraction > 0.02 && fraction < 1 && elapsed > 500 ? `, about ${formatSeconds((elapsed / fraction) * (1 - fraction))} s left` : '';
    item.text.textContent = p.unit === 'steps' ? 'running…' : `${amount} (${Math.floor(fraction * 100)} %${eta})`;
    this.onStage(`${STAGE_LABELS[p.stage] ?? p.stage}…`);
  }
}

