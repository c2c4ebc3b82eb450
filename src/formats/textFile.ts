/** A small text file (an SVG plot, a report) written whole through an AtomicFile: complete or absent. */
import { AtomicFile } from './atomicFile.js';

export async function writeTextFile(path: string, text: string): Promise<void> {
  const file = await AtomicFile.create(path);
  try {
    await file.write(text);
    await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}
