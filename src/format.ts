/** "1 document", "2,048 documents": a count with its noun, in the plural unless it is one. */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}
