/**
 * The settings' S-curve, off the main thread: choosing bands × rows for a
 * threshold integrates the S-curve of every b·r ≤ k (a few hundred ms for
 * k = 128), too long for the page's thread. Answers the latest request only.
 */
import { approximateThreshold, candidateProbability, checkParams, type LshParams } from '../src/bands/lshParams.js';
import { defaultLshParams } from '../src/dedup/dedupSigned.js';
import type { VerifyMode } from '../src/verify/verification.js';
import { sCurveSvg } from '../src/plots/sCurve.js';
import { errorMessage } from '../src/errors.js';

export interface LshRequest {
  readonly id: number;
  readonly threshold: number;
  readonly k: number;
  /** Given by hand (both), else chosen for the threshold and the verification. */
  readonly manual?: LshParams;
  readonly verify: VerifyMode;
}

export type LshReply =
  | {
      readonly id: number;
      readonly lsh: LshParams;
      readonly svg: string;
      readonly atThreshold: number;
      readonly midpoint: number;
    }
  | { readonly id: number; readonly error: string };

self.onmessage = (event: MessageEvent<LshRequest>) => {
  const { id, threshold, k, manual, verify } = event.data;
  let reply: LshReply;
  try {
    let lsh: LshParams;
    if (manual) {
      checkParams(manual, k);
      lsh = manual;
    } else {
      lsh = defaultLshParams(threshold, k, verify);
    }
    const svg = sCurveSvg({ ...lsh, threshold });
    reply = {
      id,
      lsh,
      svg,
      atThreshold: candidateProbability(threshold, lsh.bands, lsh.rows),
      midpoint: approximateThreshold(lsh.bands, lsh.rows),
    };
  } catch (error) {
    reply = { id, error: errorMessage(error) };
  }
  (self as unknown as Worker).postMessage(reply);
};
