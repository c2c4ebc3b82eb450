//! Native reference of `gpudedup sign CORPUS.jsonl -o OUT.npy --threads 1` with the default options
//! (classic scheme, seed 42, k = 128, word 5-grams, 64-bit slots), single-threaded, for
//! bench/nativeSign.bench.ts only. It writes the same OUT.npy, byte for byte, and beside it
//! OUT.npy.ids.json ({"ids": [...], "empty": [...], "documents": N}; not gpudedup's sidecar).
//!
//!   rust-minhash CORPUS.jsonl -o OUT.npy [-k 128] [--seed 42] [-n 5] [-q]
//!
//! The steps (README, "The hash family"; src/text/normalize.ts, src/shingles/shingles.ts,
//! src/signatures/hashFamily.ts, src/formats/shards/npy.ts):
//!   1. JSON Lines, one object per line (\n, \r\n or a lone \r end a line, as node:readline);
//!      blank lines skipped but counted; "text" must be a string; "id" a string or number,
//!      else the 1-based line number. Invalid UTF-8 becomes U+FFFD (maximal subparts, as
//!      Node's decoder); a lone surrogate escape in the JSON (\ud800), which JavaScript keeps
//!      and encodes as U+FFFD, is read as U+FFFD.
//!   2. Lowercase (str::to_lowercase: Unicode default case mapping with Final_Sigma, as
//!      JavaScript's toLowerCase; the two can differ only where Rust's Unicode tables and Node's
//!      ICU are of different versions: rustc 1.95 and Node 20.20.2 (ICU 78.2) are both Unicode 17,
//!      and their 1,488 single-code-point mappings were checked equal), split on runs of Unicode
//!      White_Space (char::is_whitespace: the same 25 code points as gpudedup's isWhiteSpace).
//!   3. Word n-grams: each token followed by one space byte, windows of n tokens (1..n−1
//!      tokens: one shingle of all of them; none: no shingles); each shingle FNV-1a 64 of its
//!      UTF-8 bytes mod P = 2^61 − 1; the set deduplicated.
//!   4. slot i = min over x of ((a_i·x) mod P + b_i) mod P, a u128 product folded at bit 61,
//!      with a_i = splitmix64(seed + 2i) mod (P − 1) + 1, b_i = splitmix64(seed + 2i + 1) mod P.
//!      A document without shingles gets a row of all ones (u64::MAX), as gpudedup.
//!   5. OUT.npy: NumPy 1.0, '<u8', shape (documents, k), the 128-byte header gpudedup writes;
//!      written to OUT.npy.partial, flushed to disk (fdatasync) and renamed, as gpudedup does.
//!
//! A line that is not a JSON object with a string "text" stops the run with exit status 1
//! (gpudedup without --skip-invalid does the same).
//!
//! Known differences, in ids and refusals only (never in the signature of a document both read):
//! an integer id beyond 2^64 (gpudedup keeps its digits, serde_json reads a float); a fractional
//! id (Rust's float formatting, e.g. 1e-7 as 0.0000001); an object naming "text" or "id" twice
//! (JSON.parse keeps the last, serde refuses the line). The text and id fields are fixed: "text", "id".

use serde::Deserialize;
use std::borrow::Cow;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::process::exit;
use std::time::Instant;

const P: u64 = (1 << 61) - 1;
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;
const MIX1: u64 = 0xbf58_476d_1ce4_e5b9;
const MIX2: u64 = 0x94d0_49bb_1331_11eb;
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
const NPY_HEADER_BYTES: usize = 128;

fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(MIX1);
    z = (z ^ (z >> 27)).wrapping_mul(MIX2);
    z ^ (z >> 31)
}

/// (a_i, b_i) for i < k, as src/signatures/hashFamily.ts (classic scheme).
fn hash_family(k: usize, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut a = Vec::with_capacity(k);
    let mut b = Vec::with_capacity(k);
    for i in 0..k as u64 {
        let even = seed.wrapping_add(2 * i);
        a.push(splitmix64(even) % (P - 1) + 1);
        b.push(splitmix64(even.wrapping_add(1)) % P);
    }
    (a, b)
}

#[inline]
fn fnv1a64_mod_p(bytes: &[u8]) -> u64 {
    let mut h = FNV_OFFSET;
    for &byte in bytes {
        h ^= byte as u64;
        h = h.wrapping_mul(FNV_PRIME);
    }
    h % P
}

/// ((a·x) mod P + b) mod P for a, x, b < P.
#[inline(always)]
fn mul_add_mod_p(a: u64, x: u64, b: u64) -> u64 {
    let product = (a as u128) * (x as u128);
    let mut r = (product as u64 & P) + (product >> 61) as u64;
    if r >= P {
        r -= P;
    }
    r += b;
    if r >= P {
        r -= P;
    }
    r
}

/// The header src/formats/shards/npyHeader.ts writes: magic, version 1.0, 118 bytes of dict padded with spaces and a newline.
fn npy_header(rows: u64, cols: usize) -> [u8; NPY_HEADER_BYTES] {
    let dict = format!("{{'descr': '<u8', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    let text_length = NPY_HEADER_BYTES - 10;
    let mut out = [b' '; NPY_HEADER_BYTES];
    out[..6].copy_from_slice(b"\x93NUMPY");
    out[6] = 1;
    out[7] = 0;
    out[8] = (text_length & 0xff) as u8;
    out[9] = (text_length >> 8) as u8;
    out[10..10 + dict.len()].copy_from_slice(dict.as_bytes());
    out[NPY_HEADER_BYTES - 1] = b'\n';
    out
}

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(borrow)]
    text: Cow<'a, str>,
    #[serde(default)]
    id: Option<serde_json::Value>,
}

/// String(value) in JavaScript for a JSON number id (integers as digits; other floats as Rust prints them).
fn js_number(n: &serde_json::Number) -> String {
    if n.is_u64() || n.is_i64() {
        return n.to_string();
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 {
        format!("{}", f as i128)
    } else {
        format!("{f}")
    }
}

/// Whether JavaScript's String.prototype.trim leaves nothing (its white space: Zs, TAB, VT, FF, BOM, line terminators).
fn js_blank(s: &str) -> bool {
    s.chars().all(|c| {
        matches!(
            c,
            '\t' | '\n' | '\u{0b}' | '\u{0c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
                ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
        )
    })
}

/// The line with every \uXXXX escape of a lone surrogate replaced by \ufffd (what JavaScript's UTF-8 encoder makes of it).
fn replace_lone_surrogates(line: &str) -> String {
    let bytes = line.as_bytes();
    let hex = |at: usize| -> Option<u32> {
        let s = line.get(at..at + 4)?;
        u32::from_str_radix(s, 16).ok()
    };
    let escape_at = |at: usize| -> Option<u32> {
        if bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u') {
            hex(at + 2)
        } else {
            None
        }
    };
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match escape_at(i) {
            Some(0xd800..=0xdbff) if matches!(escape_at(i + 6), Some(0xdc00..=0xdfff)) => i += 12, // a pair
            Some(0xd800..=0xdfff) => {
                out.push_str(&line[copied..i]);
                out.push_str("\\ufffd");
                i += 6;
                copied = i;
            }
            _ => i += 2, // any other escape, \\ included
        }
    }
    out.push_str(&line[copied..]);
    out
}

struct Options {
    input: String,
    output: String,
    k: usize,
    seed: u64,
    n: usize,
    quiet: bool,
}

fn usage(message: &str) -> ! {
    eprintln!("rust-minhash: {message}\nusage: rust-minhash CORPUS.jsonl -o OUT.npy [-k 128] [--seed 42] [-n 5] [-q]");
    exit(2)
}

fn parse_options() -> Options {
    let mut args = std::env::args().skip(1);
    let (mut input, mut output) = (None, None);
    let (mut k, mut seed, mut n, mut quiet) = (128usize, 42u64, 5usize, false);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().unwrap_or_else(|| usage(&format!("{name} needs a value")));
        match arg.as_str() {
            "-o" | "--out" => output = Some(value("-o")),
            "-k" | "--k" => k = value("-k").parse().unwrap_or_else(|_| usage("-k takes a positive integer")),
            "-n" | "--ngram" => n = value("-n").parse().unwrap_or_else(|_| usage("-n takes a positive integer")),
            "--seed" => {
                let text = value("--seed");
                let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                    Some(hex) => u64::from_str_radix(hex, 16),
                    None => text.parse(),
                };
                seed = parsed.unwrap_or_else(|_| usage("--seed takes a 64-bit unsigned integer (decimal or 0x hex)"));
            }
            "-q" | "--quiet" => quiet = true,
            _ if arg.starts_with('-') && arg.len() > 1 => usage(&format!("unknown option {arg}")),
            _ if input.is_none() => input = Some(arg),
            _ => usage("one input file only"),
        }
    }
    if k == 0 || n == 0 {
        usage("-k and -n must be at least 1");
    }
    Options {
        input: input.unwrap_or_else(|| usage("no input file")),
        output: output.unwrap_or_else(|| usage("no -o OUT.npy")),
        k,
        seed,
        n,
        quiet,
    }
}

fn fail(message: String) -> ! {
    eprintln!("rust-minhash: {message}");
    exit(1)
}

struct Signer {
    k: usize,
    n: usize,
    a: Vec<u64>,
    b: Vec<u64>,
    bytes: Vec<u8>,
    starts: Vec<usize>,
    shingles: Vec<u64>,
    row: Vec<u64>,
}

impl Signer {
    /// Signs one document into self.row; false when it has no shingles (the row is then all ones).
    fn sign(&mut self, text: &str) -> bool {
        let lower = text.to_lowercase();
        self.bytes.clear();
        self.starts.clear();
        self.starts.push(0);
        for token in lower.split(char::is_whitespace).filter(|t| !t.is_empty()) {
            self.bytes.extend_from_slice(token.as_bytes());
            self.bytes.push(b' ');
            self.starts.push(self.bytes.len());
        }
        let tokens = self.starts.len() - 1;
        self.row.fill(u64::MAX);
        if tokens == 0 {
            return false;
        }
        let span = self.n.min(tokens);
        let windows = tokens + 1 - span;
        self.shingles.clear();
        for w in 0..windows {
            self.shingles
                .push(fnv1a64_mod_p(&self.bytes[self.starts[w]..self.starts[w + span]]));
        }
        self.shingles.sort_unstable();
        self.shingles.dedup();
        let (a, b, row) = (&self.a[..self.k], &self.b[..self.k], &mut self.row[..self.k]);
        for &x in &self.shingles {
            for i in 0..row.len() {
                let h = mul_add_mod_p(a[i], x, b[i]);
                if h < row[i] {
                    row[i] = h;
                }
            }
        }
        true
    }
}

fn main() {
    let started = Instant::now();
    let options = parse_options();
    let (a, b) = hash_family(options.k, options.seed);
    let mut signer = Signer {
        k: options.k,
        n: options.n,
        a,
        b,
        bytes: Vec::new(),
        starts: Vec::new(),
        shingles: Vec::new(),
        row: vec![u64::MAX; options.k],
    };

    let input = File::open(&options.input).unwrap_or_else(|e| fail(format!("{}: {e}", options.input)));
    let mut reader = BufReader::with_capacity(1 << 20, input);
    let partial = format!("{}.partial", options.output);
    let out_file = File::create(&partial).unwrap_or_else(|e| fail(format!("{partial}: {e}")));
    let mut out = BufWriter::with_capacity(1 << 20, out_file);
    out.write_all(&npy_header(0, options.k))
        .unwrap_or_else(|e| fail(format!("{partial}: {e}")));

    let mut ids: Vec<String> = Vec::new();
    let mut empty: Vec<u64> = Vec::new();
    let mut row_bytes = vec![0u8; 8 * options.k];
    let mut buffer = Vec::new();
    let mut line_number = 0u64;
    loop {
        buffer.clear();
        let read = reader
            .read_until(b'\n', &mut buffer)
            .unwrap_or_else(|e| fail(format!("{}: {e}", options.input)));
        if read == 0 {
            break;
        }
        if buffer.last() == Some(&b'\n') {
            buffer.pop();
        }
        if buffer.last() == Some(&b'\r') {
            buffer.pop();
        }
        let whole = String::from_utf8_lossy(&buffer);
        for line in whole.split('\r') {
            line_number += 1;
            if js_blank(line) {
                continue;
            }
            let fixed;
            let record = match serde_json::from_str::<Record>(line) {
                Ok(record) => record,
                // serde_json refuses a lone surrogate escape (\ud800 not followed by \udc00–\udfff), JSON.parse keeps it.
                Err(error) => {
                    fixed = replace_lone_surrogates(line);
                    if fixed == line {
                        fail(format!("{}:{line_number}: {error}", options.input));
                    }
                    serde_json::from_str::<Record>(&fixed).unwrap_or_else(|_| fail(format!("{}:{line_number}: {error}", options.input)))
                }
            };
            let id = match &record.id {
                None | Some(serde_json::Value::Null) => line_number.to_string(),
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(serde_json::Value::Number(n)) => js_number(n),
                Some(_) => fail(format!(
                    "{}:{line_number}: id field \"id\" is not a string or number",
                    options.input
                )),
            };
            if !signer.sign(&record.text) {
                empty.push(ids.len() as u64);
            }
            ids.push(id);
            for (chunk, value) in row_bytes.chunks_exact_mut(8).zip(&signer.row) {
                chunk.copy_from_slice(&value.to_le_bytes());
            }
            out.write_all(&row_bytes).unwrap_or_else(|e| fail(format!("{partial}: {e}")));
        }
    }

    let documents = ids.len() as u64;
    let mut file = out.into_inner().unwrap_or_else(|e| fail(format!("{partial}: {}", e.error())));
    let commit = |file: &mut File| -> std::io::Result<()> {
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&npy_header(documents, options.k))?;
        file.sync_data()
    };
    commit(&mut file).unwrap_or_else(|e| fail(format!("{partial}: {e}")));
    drop(file);
    std::fs::rename(&partial, &options.output).unwrap_or_else(|e| fail(format!("{}: {e}", options.output)));

    let ids_path = format!("{}.ids.json", options.output);
    let write_ids = || -> std::io::Result<()> {
        let mut w = BufWriter::new(File::create(&ids_path)?);
        w.write_all(b"{\"ids\":")?;
        serde_json::to_writer(&mut w, &ids)?;
        w.write_all(b",\"empty\":")?;
        serde_json::to_writer(&mut w, &empty)?;
        writeln!(w, ",\"documents\":{documents}}}")?;
        w.into_inner().map_err(|e| e.into_error())?.sync_data()
    };
    write_ids().unwrap_or_else(|e| fail(format!("{ids_path}: {e}")));

    if !options.quiet {
        eprintln!(
            "rust-minhash: {documents} documents ({} empty) signed into {} in {:.3} s",
            empty.len(),
            options.output,
            started.elapsed().as_secs_f64()
        );
    }
}
