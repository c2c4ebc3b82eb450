/** The run's progress: a bar per stage with what is done and, once it can be estimated, the time left. */
import { formatBytes, formatSeconds, int, plural } from './dom.js';
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
  checking: 'Reading and checking the files against the index',
};

const UNITS: Record<StageProgress['unit'], string> = { bytes: 'byte', bands: 'band', pairs: 'pair', steps: 'step' };

/** How a run ended, as the stage that was running then shows it. */
export type RunEnd = 'done' | 'failed' | 'cancelled';

interface Item {
  readonly li: HTMLLIElement;
  readonly bar: HTMLProgressElement;
  readonly text: HTMLSpanElement;
  readonly started: number;
}

export class ProgressView {
  private readonly items = new Map<string, Item>();
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

  /**
   * The run is over: no line may still say "running…" or a time left. Done,
   * every stage is complete; failed or cancelled, the stage that was running
   * says so and keeps how far it got.
   */
  stop(end: RunEnd): void {
    for (const [stage, item] of this.items) {
      if (stage !== this.current || end === 'done') this.complete(item);
      else {
        item.li.classList.add(end);
        item.li.dataset.state = end;
        item.text.textContent = `${end} after ${formatSeconds(performance.now() - item.started)} s`;
      }
    }
    this.current = '';
  }

  update(p: StageProgress): void {
    let item = this.items.get(p.stage);
    if (item === undefined) {
      const previous = this.items.get(this.current);
      if (previous !== undefined) this.complete(previous);
      item = this.add(p.stage);
    }
    this.current = p.stage;
    const elapsed = performance.now() - item.started;
    item.bar.max = Math.max(1, p.total);
    item.bar.value = Math.min(p.done, p.total);
    const fraction = p.total > 0 ? p.done / p.total : 0;
    const eta =
      fraction > 0.02 && fraction < 1 && elapsed > 500
        ? `, about ${formatSeconds((elapsed / fraction) * (1 - fraction))} s left`
        : '';
    item.text.textContent =
      p.unit === 'steps' ? 'running…' : `${describeAmount(p)} (${Math.floor(fraction * 100)} %${eta})`;
    item.bar.setAttribute('aria-valuetext', item.text.textContent);
    this.onStage(`${STAGE_LABELS[p.stage] ?? p.stage}…`);
  }

  private add(stage: string): Item {
    const li = document.createElement('li');
    const label = document.createElement('span');
    label.textContent = STAGE_LABELS[stage] ?? stage;
    const bar = document.createElement('progress');
    bar.setAttribute('aria-label', label.textContent);
    const text = document.createElement('span');
    li.dataset.stage = stage;
    li.dataset.state = 'running';
    li.append(label, bar, text);
    this.list.append(li);
    const item = { li, bar, text, started: performance.now() };
    this.items.set(stage, item);
    return item;
  }

  /** A finished stage: full bar, its time; its last progress message may have been throttled away. */
  private complete(item: Item): void {
    if (item.li.dataset.state === 'done') return;
    item.li.classList.add('done');
    item.li.dataset.state = 'done';
    item.bar.max = Math.max(1, item.bar.max);
    item.bar.value = item.bar.max;
    item.text.textContent = `done in ${formatSeconds(performance.now() - item.started)} s`;
    item.bar.setAttribute('aria-valuetext', item.text.textContent);
  }
}

/** "3.1 MiB of 50.0 MiB", "1,024 of 4,096 pairs", "0 of 1 pair". */
export function describeAmount(p: StageProgress): string {
  if (p.unit === 'bytes') return `${formatBytes(p.done)} of ${formatBytes(p.total)}`;
  return `${int(p.done)} of ${plural(p.total, UNITS[p.unit])}`;
}
