/**
 * Two documents side by side, each with the shingles the other shares marked
 * (sharedShingles.ts), and their exact Jaccard: the one diff of the tab's
 * cluster inspector (web/inspector.ts) and of the HTML report
 * (formats/reports/htmlReport.ts). Browser-safe.
 */
import { sharedShingleView, type Segment } from '../shingles/sharedShingles.js';
import { shingleDocument, type ShingleOptions } from '../shingles/shingles.js';
import { exactJaccard } from './verification.js';

export interface TextComparison {
  readonly kept: Segment[];
  readonly removed: Segment[];
  /** Exact Jaccard of the two shingle sets. */
  readonly exact: number;
  readonly sharedShingles: number;
  readonly keptShingles: number;
  readonly removedShingles: number;
}

export function compareTexts(keptText: string, removedText: string, options: ShingleOptions): TextComparison {
  const keptSet = shingleDocument(keptText, options);
  const removedSet = shingleDocument(removedText, options);
  const left = sharedShingleView(keptText, removedSet, options);
  const right = sharedShingleView(removedText, keptSet, options);
  return {
    kept: left.segments,
    removed: right.segments,
    exact: exactJaccard(keptSet, removedSet),
    sharedShingles: left.sharedShingles,
    keptShingles: left.shingles,
    removedShingles: right.shingles,
  };
}
