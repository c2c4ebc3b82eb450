"""The round trip's independent side (test/formats/roundTrip.test.ts), in pyarrow.

  write DIR            all-types.parquet: a column of every type pyarrow writes to Parquet (types it
                       refuses are listed in DIR/skipped.json), 12 rows whose last 6 repeat the texts of
                       the first 6, so dedup keeps ids 0-5; int96.parquet (an INT96 timestamp column);
                       values.jsonl: big integers, decimals as strings, CRLF and invalid UTF-8.
  parquet IN OUT       OUT (Parquet) holds IN's rows with OUT's ids: same Arrow schema, same Parquet
                       column types, every value equal (floats bit for bit).
  json IN OUT          OUT (JSON Lines) holds IN's rows with OUT's ids, by the docs' mapping (docs/inputs-outputs.md).
  jsonl-parquet IN OUT OUT (Parquet from JSON Lines) holds IN's lines' values exactly.
  jsonl IN OUT         OUT (JSON Lines from JSON Lines) holds IN's lines' values exactly.

Prints one JSON object: {"ok": bool, "problems": [...], ...}.
"""
import base64
import datetime
import decimal
import io
import json
import math
import struct
import sys
import uuid

import pyarrow as pa
import pyarrow.parquet as pq

D = decimal.Decimal
TEXTS = [
    'the quick brown fox jumps over the lazy dog near the river bank',
    'parquet files keep typed columns in row groups with page statistics',
    'minhash signatures estimate the jaccard similarity of shingle sets',
    'snowflake ids overflow a double long before they overflow an int64',
    'decimal columns carry a precision and a scale in the file footer',
    'timestamps in nanoseconds need nine fraction digits to round trip',
]


def six(values):
    """Rows 0-5 get the values, rows 6-11 (duplicate texts, removed) get them reversed."""
    assert len(values) == 6
    return values + values[::-1]


def ext(kind, storage):
    return pa.ExtensionArray.from_storage(kind, storage)


def candidates():
    ts = [0, 1, -1, None, 1_700_000_000, -2_000_000_000]
    micros = [1_700_000_000_123_456, -62_135_596_800_000_000, 253_402_300_799_999_999, None, -1, 0]
    nanos = [1_700_000_000_123_456_789, -1, 2**63 - 1, None, -(2**63) + 1, 0]
    half = pa.array(six([0x3C00, 0x8000, 0x7E00, None, 0x0001, 0x7BFF]), pa.uint16()).view(pa.float16())
    yield 'bool', pa.array(six([True, False, None, True, False, True]))
    for bits in (8, 16, 32, 64):
        lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        yield f'int{bits}', pa.array(six([lo, hi, 0, None, -1, 1]), getattr(pa, f'int{bits}')())
        yield f'uint{bits}', pa.array(six([0, 2**bits - 1, 2 ** (bits - 1), None, 1, 2 ** (bits - 1) - 1]), getattr(pa, f'uint{bits}')())
    yield 'uint64_2p53', pa.array(six([2**53 + 1, 2**63 + 1, 2**64 - 2, None, 9007199254740993, 1]), pa.uint64())
    yield 'float16', half
    yield 'float32', pa.array(six([1.5, -0.0, math.nan, math.inf, -math.inf, None]), pa.float32())
    yield 'float64', pa.array(six([0.1, -0.0, math.nan, math.inf, 5e-324, None]), pa.float64())
    yield 'decimal32', pa.array(six([D('1234567.89'), D('-0.01'), None, D('0.00'), D('-9999999.99'), D('1')]), pa.decimal32(9, 2))
    yield 'decimal64', pa.array(six([D('123456789012345.678'), D('-0.001'), None, D('0.000'), D('-1'), D('7')]), pa.decimal64(18, 3))
    yield 'decimal18_5', pa.array(six([D('1234567890123.12345'), D('-0.00001'), None, D('9999999999999.99999'), D('0'), D('-1')]), pa.decimal128(18, 5))
    yield 'decimal38_10', pa.array(six([D('1234567890123456789012345678.0123456789'), D('-0.0000000001'), None, D('-9999999999999999999999999999.9999999999'), D('0'), D('1')]), pa.decimal128(38, 10))
    yield 'decimal76_20', pa.array(six([D('12345678901234567890123456789012345678901234567890123456.01234567890123456789'), D('-1E-20'), None, D('0'), D('1'), D('-2')]), pa.decimal256(76, 20))
    strings = ['héllo wörld', '', None, '😀 emoji', 'nul \x00 inside', 'x' * 300]
    yield 'string', pa.array(six(strings), pa.string())
    yield 'large_string', pa.array(six(strings), pa.large_string())
    yield 'string_view', pa.array(six(strings), pa.string_view())
    yield 'dictionary', pa.array(six(['a', 'b', None, 'a', 'c', 'b'])).dictionary_encode()
    blobs = [b'\x00\xff', b'', None, bytes(range(256)), b'\xef\xbf\xbd', b'plain']
    yield 'binary', pa.array(six(blobs), pa.binary())
    yield 'large_binary', pa.array(six(blobs), pa.large_binary())
    yield 'binary_view', pa.array(six(blobs), pa.binary_view())
    yield 'fixed_binary', pa.array(six([b'abc', b'\x00\x00\x00', None, b'\xff\xfe\xfd', b'xyz', b'\x01\x02\x03']), pa.binary(3))
    yield 'date32', pa.array(six([0, -719_162, 2_932_896, None, -1, 19_000]), pa.date32())
    yield 'date64', pa.array(six([0, 86_400_000, -86_400_000, None, 1_641_600_000_000, 0]), pa.date64())
    yield 'time32_s', pa.array(six([0, 86_399, None, 1, 3600, 43_200]), pa.time32('s'))
    yield 'time32_ms', pa.array(six([0, 86_399_999, None, 1, 3_600_000, 43_200_123]), pa.time32('ms'))
    yield 'time64_us', pa.array(six([0, 86_399_999_999, None, 1, 3_600_000_000, 43_200_123_456]), pa.time64('us'))
    yield 'time64_ns', pa.array(six([0, 86_399_999_999_999, None, 1, 3_600_000_000_000, 43_200_123_456_789]), pa.time64('ns'))
    yield 'timestamp_s', pa.array(six(ts), pa.timestamp('s'))
    yield 'timestamp_ms', pa.array(six([1_700_000_000_123, -1, 0, None, -62_135_596_800_000, 253_402_300_799_999]), pa.timestamp('ms'))
    yield 'timestamp_us', pa.array(six(micros), pa.timestamp('us'))
    yield 'timestamp_us_utc', pa.array(six(micros), pa.timestamp('us', tz='UTC'))
    yield 'timestamp_ns', pa.array(six(nanos), pa.timestamp('ns'))
    yield 'timestamp_ns_tz', pa.array(six(nanos), pa.timestamp('ns', tz='America/New_York'))
    for unit in ('s', 'ms', 'us', 'ns'):
        yield f'duration_{unit}', pa.array(six([0, -1, 2**63 - 1, None, -(2**63) + 1, 86_400]), pa.duration(unit))
    yield 'null', pa.nulls(12)
    yield 'uuid', ext(pa.uuid(), pa.array(six([uuid.UUID(int=n).bytes if n is not None else None for n in (0, 2**128 - 1, None, 12345, 2**127, 1)]), pa.binary(16)))
    yield 'json', ext(pa.json_(), pa.array(six(['{"big": 12345678901234567890123, "f": 1.50}', '[1, 2,  3]', None, '"s"', 'null', '{}'])))
    yield 'bool8', ext(pa.bool8(), pa.array(six([0, 1, None, 1, 0, 1]), pa.int8()))
    yield 'list_int64', pa.array(six([[1, None, 2**63 - 1], [], None, [-(2**63)], [0], [5, 6]]), pa.list_(pa.int64()))
    yield 'large_list_string', pa.array(six([['a', None], [], None, ['ü'], [''], ['x', 'y']]), pa.large_list(pa.string()))
    yield 'fixed_list', pa.array(six([[1, 2], [None, 3], None, [0, 0], [-1, 1], [7, 8]]), pa.list_(pa.int32(), 2))
    yield 'list_view', pa.array(six([[1, 2], [], None, [3], [None], [4, 5, 6]]), pa.list_view(pa.int32()))
    yield 'list_list', pa.array(six([[[1], [], None], [], None, [[2, 3]], [None], [[4]]]), pa.list_(pa.list_(pa.int64())))
    yield 'list_decimal', pa.array(six([[D('1.23'), None], [], None, [D('-99999999.99')], [D('0.00')], [D('5.50')]]), pa.list_(pa.decimal128(10, 2)))
    yield 'list_binary', pa.array(six([[b'\x00\xff', None], [], None, [b''], [b'\xfe'], [b'ok']]), pa.list_(pa.binary()))
    inner = pa.struct([('d', pa.decimal128(38, 10)), ('e', pa.timestamp('us'))])
    kind = pa.struct([('a', pa.int16()), ('b', pa.string()), ('c', inner)])
    yield 'struct', pa.array(six([
        {'a': -32768, 'b': 'x', 'c': {'d': D('1.0000000001'), 'e': datetime.datetime(2024, 2, 29, 12, 0, 0, 123456)}},
        None,
        {'a': None, 'b': None, 'c': None},
        {'a': 1, 'b': '', 'c': {'d': None, 'e': None}},
        {'a': 2, 'b': 'y', 'c': {'d': D('-1'), 'e': datetime.datetime(1, 1, 1)}},
        {'a': 3, 'b': 'z', 'c': {'d': D('0'), 'e': datetime.datetime(9999, 12, 31, 23, 59, 59, 999999)}},
    ]), kind)
    yield 'list_struct', pa.array(six([[{'x': 1, 'y': b'\x00'}, None], [], None, [{'x': None, 'y': None}], [{'x': -128, 'y': b''}], [{'x': 127, 'y': b'\xff'}]]), pa.list_(pa.struct([('x', pa.int8()), ('y', pa.binary())])))
    yield 'map_int_string', pa.array(six([[(2, 'b'), (1, 'a')], [], None, [(1, None)], [(-1, 'x'), (-1, 'y')], [(10, '')]]), pa.map_(pa.int32(), pa.string()))
    yield 'map_string_list', pa.array(six([[('k', [1, 2])], [], None, [('z', None), ('a', [])], [('', [2**62])], [('q', [None])]]), pa.map_(pa.string(), pa.list_(pa.int64())))


def write(directory):
    columns, skipped = {'id': pa.array(range(12), pa.int64()), 'text': pa.array([TEXTS[i % 6] for i in range(12)])}, {}
    for name, array in candidates():
        try:
            pq.write_table(pa.table({name: array}), io.BytesIO())
            columns[name] = array
        except (pa.ArrowException, NotImplementedError) as error:
            skipped[name] = str(error)
    pq.write_table(pa.table(columns), f'{directory}/all-types.parquet')
    int96 = pa.table({'id': pa.array(range(2), pa.int64()), 'text': TEXTS[:2], 'ts': pa.array([1, 2], pa.timestamp('ns'))})
    pq.write_table(int96, f'{directory}/int96.parquet', use_deprecated_int96_timestamps=True)
    with open(f'{directory}/values.jsonl', 'wb') as out:
        out.write(JSONL)
    with open(f'{directory}/skipped.json', 'w') as out:
        json.dump(skipped, out)
    return {'ok': True, 'columns': list(columns), 'skipped': skipped}


JSONL = b''.join([
    b'{"id": 1460323737035677698, "text": "' + TEXTS[0].encode() + b'", "n": 1460323737035677698, "wide": 123456789012345678901234567890, "dec": "1234567890123.12345", "f": 0.1}\n',
    b'{"id": 1460323737035677699, "text": "' + TEXTS[1].encode() + b'", "n": -9223372036854775808, "wide": -99999999999999999999999999999999999999, "dec": "-0.00001", "f": 1e300}\r\n',
    b'{"id": 9007199254740993, "text": "' + TEXTS[2].encode() + b' \xff\xfe invalid", "n": 9223372036854775807, "wide": 9223372036854775808, "dec": "0.10", "f": -2.5}\n',
    b'{"id": 9007199254740992, "text": "' + TEXTS[3].encode() + b'", "n": 9007199254740993, "wide": 1, "dec": "1E+3", "f": 5e-324}\r\n',
    b'{"id": 1460323737035677700, "text": "' + TEXTS[0].encode() + b'", "n": 1, "wide": 2, "dec": "3", "f": 4.0}\n',
    b'{"id": 1460323737035677701, "text": "' + TEXTS[1].encode() + b'", "n": 1, "wide": 2, "dec": "3", "f": 4.0}\n',
])
KEPT_JSONL_IDS = [1460323737035677698, 1460323737035677699, 9007199254740993, 9007199254740992]


# ---- Parquet to Parquet ----------------------------------------------------

def descriptors(path):
    """Each leaf's path and types (precision and scale only for decimals: pyarrow says -1 or 0 for other columns
    depending on whether the footer gives the logical type or only the converted type, which name the same type)."""
    schema = pq.ParquetFile(path).schema
    return [
        (c.path, c.physical_type, str(c.logical_type), c.converted_type, c.length, c.max_definition_level, c.max_repetition_level)
        + ((c.precision, c.scale) if c.converted_type == 'DECIMAL' else ())
        for c in (schema.column(i) for i in range(len(schema)))
    ]


VIEWS = {pa.string_view(): pa.string(), pa.binary_view(): pa.binary()}


def bit_view(array):
    """Floats as their bits, so that NaN equals NaN and -0.0 differs from 0.0; view types (which take() lacks) as their plain types."""
    kind = array.type
    if kind in VIEWS:
        return array.cast(VIEWS[kind])
    if pa.types.is_list_view(kind):  # pyarrow 26's cast of a list_view to a list mixes up the lists
        return pa.array(array.to_pylist(), pa.list_(kind.value_type))
    for float_type, int_type in ((pa.float16(), pa.uint16()), (pa.float32(), pa.uint32()), (pa.float64(), pa.uint64())):
        if kind == float_type:
            return array.view(int_type)
    return array


def check_parquet(source, kept):
    problems = []
    a, b = pq.read_table(source), pq.read_table(kept)
    if not b.schema.equals(a.schema):
        problems.append(f'Arrow schema differs:\n{a.schema}\n---\n{b.schema}')
    for x, y in zip(descriptors(source), descriptors(kept)):
        if x != y:
            problems.append(f'Parquet column {x} became {y}')
    ids = b.column('id').to_pylist()
    where = {v: i for i, v in enumerate(a.column('id').to_pylist())}
    rows = pa.array([where[i] for i in ids], pa.int64())
    for name in a.column_names:
        want, got = bit_view(a.column(name).combine_chunks()).take(rows), bit_view(b.column(name).combine_chunks())
        if not got.equals(want):
            problems.append(f'column {name}: {got.to_string()} != {want.to_string()}')
    return {'ok': not problems, 'problems': problems, 'ids': [str(i) for i in ids], 'columns': a.num_columns}


# ---- Parquet to JSON Lines: the docs' mapping, written independently --------

def iso(value, per_second, digits, utc):
    seconds, fraction = divmod(value, per_second)
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)
    return (f'{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}'
            f'.{fraction:0{digits}d}' + ('Z' if utc else ''))


def float_json(value):
    if value is None:
        return None
    if math.isnan(value):
        return 'NaN'
    if math.isinf(value):
        return 'Infinity' if value > 0 else '-Infinity'
    return value


def expected_json(kind, value):
    """`value`: the Arrow value; temporal values arrive as their stored integers (see storage_values)."""
    if value is None:
        return None
    if isinstance(kind, pa.BaseExtensionType):
        if kind.extension_name == 'arrow.uuid':
            return str(value if isinstance(value, uuid.UUID) else uuid.UUID(bytes=value))
        return expected_json(kind.storage_type, value)
    if pa.types.is_decimal(kind):
        return format(value, 'f')
    if pa.types.is_floating(kind):
        return float_json(value)
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or pa.types.is_fixed_size_binary(kind) or pa.types.is_binary_view(kind):
        return base64.b64encode(value).decode()
    if pa.types.is_date(kind):
        return (datetime.date(1970, 1, 1) + datetime.timedelta(days=value)).isoformat().rjust(10, '0')
    if pa.types.is_timestamp(kind):
        if isinstance(value, datetime.datetime):  # nested: microseconds, as Python holds them
            return iso((value - datetime.datetime(1970, 1, 1)) // datetime.timedelta(microseconds=1), 10**6, 6, kind.tz is not None)
        unit = 'ms' if kind.unit == 's' else kind.unit  # Parquet has no seconds: pyarrow writes milliseconds
        per = {'ms': 10**3, 'us': 10**6, 'ns': 10**9}[unit]
        return iso(value * (1000 if kind.unit == 's' else 1), per, {'ms': 3, 'us': 6, 'ns': 9}[unit], kind.tz is not None)
    if pa.types.is_time32(kind):
        return value * 1000 if kind.unit == 's' else value
    if pa.types.is_map(kind):
        return [{'key': expected_json(kind.key_type, k), 'value': expected_json(kind.item_type, v)} for k, v in value]
    if pa.types.is_struct(kind):
        return {kind.field(i).name: expected_json(kind.field(i).type, value[kind.field(i).name]) for i in range(kind.num_fields)}
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind) or pa.types.is_list_view(kind):
        return [expected_json(kind.value_type, v) for v in value]
    if pa.types.is_dictionary(kind):
        return expected_json(kind.value_type, value)
    return value  # booleans, integers, durations (their stored integer), strings, JSON text, null


def storage_values(array):
    """Python values of a column; temporal and float16 columns as their stored integers / decoded halves."""
    kind = array.type
    if pa.types.is_date64(kind):
        return [None if v is None else v // 86_400_000 for v in array.view(pa.int64()).to_pylist()]
    if pa.types.is_temporal(kind):
        width = pa.int32() if pa.types.is_date32(kind) or pa.types.is_time32(kind) else pa.int64()
        return array.view(width).to_pylist()
    if kind == pa.float16():
        return [None if v is None else struct.unpack('<e', struct.pack('<H', v))[0] for v in array.view(pa.uint16()).to_pylist()]
    if isinstance(kind, pa.BaseExtensionType):
        return array.storage.to_pylist()
    return array.to_pylist()


def same(want, got, where):
    if isinstance(want, bool) or isinstance(got, bool):
        ok = type(want) is type(got) and want == got
    elif isinstance(want, float):
        ok = isinstance(got, (int, float)) and not isinstance(got, bool) and got == want and math.copysign(1, got) == math.copysign(1, want)
    elif isinstance(want, int):
        ok = type(got) is int and got == want
    elif isinstance(want, list):
        ok = isinstance(got, list) and len(got) == len(want) and all(same(w, g, where) for w, g in zip(want, got))
    elif isinstance(want, dict):
        ok = isinstance(got, dict) and list(got) == list(want) and all(same(want[k], got[k], where) for k in want)
    else:
        ok = type(want) is type(got) and want == got
    if not ok:
        same.problems.append(f'{where}: {got!r} != {want!r}')
    return ok


def check_json(source, kept):
    same.problems = []
    a = pq.read_table(source)
    where = {v: i for i, v in enumerate(a.column('id').to_pylist())}
    columns = {name: storage_values(a.column(name).combine_chunks()) for name in a.column_names}
    ids = []
    with open(kept, 'rb') as lines:
        for number, line in enumerate(lines, 1):
            got = json.loads(line)
            ids.append(got['id'])
            row = where[got['id']]
            want = {name: expected_json(a.schema.field(name).type, columns[name][row]) for name in a.column_names}
            same(want, got, f'line {number}')
    return {'ok': not same.problems, 'problems': same.problems[:20], 'ids': [str(i) for i in ids]}


# ---- JSON Lines to Parquet ------------------------------------------------

def check_jsonl_parquet(source, kept):
    problems = []
    lines = {}
    with open(source, 'rb') as f:
        for line in f:
            record = json.loads(line.decode('utf-8', 'replace'))
            lines[record['id']] = record
    table = pq.read_table(kept)
    types = {c[0]: c[1:4] for c in descriptors(kept)}  # path: physical, logical, converted
    for column, want in (('id', ('BYTE_ARRAY', 'String', 'UTF8')), ('n', ('INT64', 'None', 'NONE')), ('wide', ('FIXED_LEN_BYTE_ARRAY', 'Decimal(precision=38, scale=0)', 'DECIMAL')),
                         ('dec', ('BYTE_ARRAY', 'String', 'UTF8')), ('f', ('DOUBLE', 'None', 'NONE'))):
        if types.get(column) != want:
            problems.append(f'column {column} is {types.get(column)}, not {want}')
    for row in table.to_pylist():
        source_row = lines[int(row['id'])]
        for name in ('n', 'wide', 'dec', 'f'):
            got = int(row[name]) if isinstance(row[name], D) else row[name]
            if got != source_row[name] or type(got) is not type(source_row[name]):
                problems.append(f'id {row["id"]}: {name} {row[name]!r} != {source_row[name]!r}')
        if '\ufffd' not in row['text'] and row['text'] != source_row['text']:
            problems.append(f'id {row["id"]}: text {row["text"]!r}')
    return {'ok': not problems, 'problems': problems, 'ids': [str(i) for i in table.column('id').to_pylist()]}


# ---- JSON Lines to JSON Lines ------------------------------------------------

def check_jsonl(source, kept):
    """Every kept line parses to its input line's values (Python's json keeps every digit). Byte for byte is
    issue 19 item 8's: CRLF and invalid UTF-8 are compared by value here, and `verbatim` lists the lines that are equal as bytes."""
    problems, verbatim = [], []
    lines = {}
    with open(source, 'rb') as f:
        for line in f:
            lines[json.loads(line.decode('utf-8', 'replace'))['id']] = line
    ids = []
    with open(kept, 'rb') as f:
        for line in f:
            got = json.loads(line.decode('utf-8', 'replace'))
            ids.append(got['id'])
            original = lines[got['id']]
            if line == original:
                verbatim.append(got['id'])
            want = json.loads(original.decode('utf-8', 'replace'))
            if got != want or any(type(got[k]) is not type(want[k]) for k in want):
                problems.append(f'id {got["id"]}: {got!r} != {want!r}')
    return {'ok': not problems, 'problems': problems, 'ids': [str(i) for i in ids], 'verbatim': [str(i) for i in verbatim]}


if __name__ == '__main__':
    command, *paths = sys.argv[1:]
    result = {'write': write, 'parquet': check_parquet, 'json': check_json, 'jsonl-parquet': check_jsonl_parquet, 'jsonl': check_jsonl}[command](*paths)
    print(json.dumps(result))
