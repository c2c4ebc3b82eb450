/** A segment file written front to back through a buffer, with its CRC-32 (whole and per BLOCK). */
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { writeAll } from '../writeAll.js';
import { faultPoint, onFile, type FileEntry } from './files.js';
import { BLOCK } from './segmentFormat.js';

const WRITE_BUFFER = 1 << 22;

/** A file written front to back through a buffer, its CRC-32 kept as it goes. */
export class AppendFile {
  private readonly fd: number;
  /** Grows to WRITE_BUFFER: a one-document segment does not allocate megabytes per file. */
  private buffer = new Uint8Array(1 << 16);
  private used = 0;
  private crc = 0;
  private blockCrc = 0;
  /** CRC-32 of each completed BLOCK bytes. */
  readonly blocks: number[] = [];
  bytes = 0;

  private closed = false;

  constructor(
    private readonly path: string,
    readonly name: string,
  ) {
    this.fd = onFile(path, () => openSync(path, 'w'));
  }

  append(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.buffer.length && this.buffer.length < WRITE_BUFFER) {
      const grown = new Uint8Array(Math.min(WRITE_BUFFER, Math.max(2 * this.buffer.length, this.used + bytes.length)));
      grown.set(this.buffer.subarray(0, this.used));
      this.buffer = grown;
    }
    if (this.used + bytes.length > this.buffer.length) this.flush();
    if (bytes.length > this.buffer.length) this.write(bytes);
    else {
      this.buffer.set(bytes, this.used);
      this.used += bytes.length;
    }
  }

  private flush(): void {
    if (this.used === 0) return;
    this.write(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private write(bytes: Uint8Array): void {
    onFile(this.path, () => writeAll(this.fd, bytes));
    this.crc = crc32(bytes, this.crc);
    for (let at = 0; at < bytes.length; ) {
      const take = Math.min(bytes.length - at, BLOCK - ((this.bytes + at) % BLOCK));
      this.blockCrc = crc32(bytes.subarray(at, at + take), this.blockCrc);
      at += take;
      if ((this.bytes + at) % BLOCK === 0) {
        this.blocks.push(this.blockCrc >>> 0);
        this.blockCrc = 0;
      }
    }
    this.bytes += bytes.length;
    faultPoint(`write ${this.name} @${this.bytes}`);
  }

  finish(): FileEntry {
    try {
      this.flush();
      if (this.bytes % BLOCK !== 0) this.blocks.push(this.blockCrc >>> 0);
      faultPoint(`fsync ${this.name}`);
      onFile(this.path, () => fsyncSync(this.fd));
    } finally {
      this.abandon();
    }
    return { name: this.name, bytes: this.bytes, crc32: this.crc >>> 0 };
  }

  /** Closes the file once: a second close could close a descriptor the process has since opened again. */
  abandon(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
