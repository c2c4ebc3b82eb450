/**
 * A small text file (an SVG plot, a report) written whole through an AtomicFile: complete or absent (`-`: standard
 * output).
 */
import { openOutput } from './atomicFile.js';

export async function writeTextFile(path: string, text: string | Uint8Array): Promise<void> {
  const file = await openOutput(path);
  try {
    await file.write(text);
    await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}
