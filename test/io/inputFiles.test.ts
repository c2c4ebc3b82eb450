// Listing the inputs: a directory walk follows symbolic links (a Hugging Face snapshot is all links), reads
// each real file once, does not follow a link back up its own tree, refuses a broken link, and says what it
// did; a file that cannot be opened is one line naming it, not Node's raw message.
import { spawnSync } from 'node:child_process';
import { chmodSync, linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listInputFiles } from '../../src/io/readDocuments.js';
import { CLI, runCli, tempDir, runCliHere } from '../support/cli.js';

const dir = tempDir('gpudedup-inputfiles-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh folder under the test's temporary directory. */
function folder(name: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
}

async function listed(paths: string[]): Promise<{ files: string[]; notes: string[] }> {
  const notes: string[] = [];
  const files = (await listInputFiles(paths, (m) => notes.push(m))).map((f) => f.path);
  return { files, notes };
}

describe('a directory walk', () => {
  it('reads a Hugging Face-style snapshot: every file a link into a blob store outside the folder', async () => {
    const blobs = folder('hf/blobs');
    const snapshot = folder('hf/snapshots/abc123');
    writeFileSync(join(blobs, '1111'), '{"id":"a","text":"alpha"}\n');
    writeFileSync(join(blobs, '2222'), '{"id":"b","text":"beta"}\n');
    writeFileSync(join(blobs, '3333'), 'PAR1 not really');
    mkdirSync(join(snapshot, 'data'));
    symlinkSync('../../../blobs/1111', join(snapshot, 'data', 'train-0.jsonl'));
    symlinkSync('../../../blobs/2222', join(snapshot, 'data', 'train-1.jsonl'));
    symlinkSync('../../blobs/1111', join(snapshot, '.gitattributes')); // a dot-file: skipped
    const { files, notes } = await listed([snapshot]);
    expect(files).toEqual([join(snapshot, 'data', 'train-0.jsonl'), join(snapshot, 'data', 'train-1.jsonl')]);
    expect(notes).toEqual([]);
    // The CLI signs it, not "holds no input files".
    const result = await runCli(['sign', snapshot, '-o', join(dir, 'hf.npy'), '--backend', 'cpu']);
    expect(result.stderr).not.toContain('holds no input files');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^signed 2 documents/);
  });

  it('follows a link to a directory, and a link to a file, and reads a file reached twice once, saying so', async () => {
    // Debian's common-licenses: GPL → GPL-3, and a folder of extra texts reached through a link.
    const licenses = folder('licenses');
    const extra = folder('extra-texts');
    writeFileSync(join(licenses, 'GPL-3'), 'GNU General Public License version 3');
    writeFileSync(join(licenses, 'MIT'), 'Permission is hereby granted');
    symlinkSync('GPL-3', join(licenses, 'GPL'));
    writeFileSync(join(extra, 'BSD'), 'Redistribution and use');
    symlinkSync(extra, join(licenses, 'more'));
    linkSync(join(licenses, 'MIT'), join(licenses, 'X11')); // a hard link: the same file
    const { files, notes } = await listed([licenses]);
    // Sorted order; GPL-3 and X11 are the files GPL and MIT already read.
    expect(files).toEqual([join(licenses, 'GPL'), join(licenses, 'MIT'), join(licenses, 'more', 'BSD')]);
    expect(notes).toEqual([
      `${licenses}: 2 paths to a file or directory already read, not read again: ${join(licenses, 'GPL-3')} (= ${join(licenses, 'GPL')}), ${join(licenses, 'X11')} (= ${join(licenses, 'MIT')})`,
    ]);
    // The CLI prints the note; every text is a document.
    const result = await runCliHere(['sign', licenses, '-o', join(dir, 'licenses.npy'), '--backend', 'cpu']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('2 paths to a file or directory already read, not read again');
    expect(result.stdout).toMatch(/^signed 3 documents/);
  });

  it('does not follow a link back to a directory above it, and names it', async () => {
    const top = folder('loop');
    mkdirSync(join(top, 'a'));
    writeFileSync(join(top, 'a', 'doc.txt'), 'one document');
    symlinkSync('..', join(top, 'a', 'up'));
    symlinkSync('.', join(top, 'a', 'self'));
    const { files, notes } = await listed([top]);
    expect(files).toEqual([join(top, 'a', 'doc.txt')]);
    expect(notes).toEqual([
      `${top}: 2 symbolic links back to a directory above (a loop), not followed: ${join(top, 'a', 'self')} → ${join(top, 'a')}, ${join(top, 'a', 'up')} → ${top}`,
    ]);
  });

  it('refuses a broken link, naming it and where it points', async () => {
    const top = folder('broken');
    writeFileSync(join(top, 'a.txt'), 'present');
    symlinkSync('gone.txt', join(top, 'b.txt'));
    await expect(listInputFiles([top])).rejects.toThrow(
      `${join(top, 'b.txt')}: a broken symbolic link (to gone.txt, which does not exist)`,
    );
    await expect(listInputFiles([join(top, 'b.txt')])).rejects.toThrow(
      `${join(top, 'b.txt')}: a broken symbolic link (to gone.txt, which does not exist)`,
    );
  });

  it('reads files named on the command line as given, links included', async () => {
    const top = folder('named');
    writeFileSync(join(top, 'real.jsonl'), '{"text":"x"}\n');
    symlinkSync('real.jsonl', join(top, 'link.jsonl'));
    expect((await listed([join(top, 'link.jsonl')])).files).toEqual([join(top, 'link.jsonl')]);
  });
});

describe('an input that cannot be opened', () => {
  it('is one line naming the file and the reason (a loop of links: ELOOP)', async () => {
    const top = folder('eloop');
    symlinkSync('b', join(top, 'a'));
    symlinkSync('a', join(top, 'b'));
    const result = await runCliHere(['sign', join(top, 'a'), '-o', join(dir, 'eloop.npy'), '--backend', 'cpu']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`gpudedup: ${join(top, 'a')}: too many symbolic links encountered (ELOOP, stat)\n`);
  });

  it('is one line naming the file and the reason (no permission: EACCES)', () => {
    const top = folder('eacces');
    const file = join(top, 'locked.jsonl');
    writeFileSync(file, '{"text":"x"}\n');
    chmodSync(file, 0o000);
    // root reads any file: run the CLI as nobody then (runuser), through folders it may enter.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) for (const d of [dir, top]) chmodSync(d, 0o755);
    const args = [CLI, 'sign', file, '-o', join(top, 'out.npy'), '--backend', 'cpu'];
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, ...args], { encoding: 'utf8' })
      : spawnSync(process.execPath, args, { encoding: 'utf8' });
    expect(result.stderr).toBe(`gpudedup: ${file}: permission denied (EACCES, open)\n`);
    expect(result.status).toBe(1);
  });
});
