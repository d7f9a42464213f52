"""Mutations of level files' raw bytes for the fuzz tests: each takes the bytes of a packaged
level and returns them broken (cut, flipped, padded, ...), drawing its choices from
hypothesis."""

from hypothesis import strategies as st


def cut_short(data: st.DataObject, raw: bytes) -> bytes:
    return raw[: data.draw(st.integers(0, max(len(raw) - 1, 0)))]


def flip_bytes(data: st.DataObject, raw: bytes) -> bytes:
    out = bytearray(raw)
    for _ in range(data.draw(st.integers(1, 8)) if out else 0):
        out[data.draw(st.integers(0, len(out) - 1))] ^= data.draw(st.integers(1, 255))
    return bytes(out)


# Invalid UTF-8 (a lone byte, a bad pair, a surrogate), NUL, a BOM, deep nesting, odd breaks.
JUNK = [
    b"\xff",
    b"\xc3\x28",
    b"\xed\xa0\x80",
    b"\x00",
    b"\xef\xbb\xbf",
    b"[" * 5000,
    b"\r",
    b"\x0b",
]
# Numbers JSON allows but no level should hold: inf, too many digits for int(), NaN tokens.
TOKENS = [
    b"1e999",
    b"-1e999",
    b"1" * 5000,
    b"1" * 400,
    b"-0",
    b"1e-400",
    b"9" * 30,
    b"NaN",
    b"Infinity",
]


def insert_bytes(data: st.DataObject, raw: bytes) -> bytes:
    at = data.draw(st.integers(0, len(raw)))
    junk = data.draw(st.one_of(st.binary(min_size=1, max_size=16), st.sampled_from(JUNK)))
    return raw[:at] + junk + raw[at:]


def delete_a_span(data: st.DataObject, raw: bytes) -> bytes:
    start = data.draw(st.integers(0, max(len(raw) - 1, 0)))
    return raw[:start] + raw[start + data.draw(st.integers(1, 200)) :]


def replace_a_number(data: st.DataObject, raw: bytes) -> bytes:
    """A number token replaced by one JSON allows but no level should hold."""
    starts = [k for k in range(1, len(raw)) if raw[k - 1 : k] == b":" and raw[k : k + 1].isdigit()]
    if not starts:
        return raw
    at = data.draw(st.sampled_from(starts))
    end = at
    while end < len(raw) and raw[end : end + 1] in b"0123456789.-eE":
        end += 1
    token = data.draw(st.sampled_from(TOKENS))
    return raw[:at] + token + raw[end:]


def pad_with_whitespace(data: st.DataObject, raw: bytes) -> bytes:
    """JSON whitespace before and after, and a byte-order mark: a map so padded is the same
    map (a leading newline was refused)."""
    pad = st.text(alphabet=" \t\r\n", max_size=6).map(str.encode)
    bom = b"\xef\xbb\xbf" if data.draw(st.booleans()) else b""
    return bom + data.draw(pad) + raw + data.draw(pad)


def repeat_a_key(data: st.DataObject, raw: bytes) -> bytes:
    """A key written a second time in one object (JSON allows it; which would count?)."""
    starts = [k + 1 for k in range(len(raw)) if raw[k : k + 2] == b'{"']
    if not starts:
        return raw
    at = data.draw(st.sampled_from(starts))
    key = data.draw(st.sampled_from([b"width", b"x", b"name", b"type", b"objects", b"id"]))
    return raw[:at] + b'"' + key + b'": 1, ' + raw[at:]


RAW_MUTATIONS = [cut_short, flip_bytes, insert_bytes, delete_a_span, replace_a_number]
RAW_MUTATIONS += [pad_with_whitespace, repeat_a_key]
