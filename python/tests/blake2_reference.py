"""BLAKE2b and BLAKE2s in plain Python (RFC 7693), from a raw parameter block: the reference
for BLAKE2X, whose output nodes have parameters (depth 0) that hashlib refuses. Slow; for
small inputs only."""
import struct

B = dict(words=8, bits=64, rounds=12, block=128, rot=(32, 24, 16, 63), fmt="<8Q", mfmt="<16Q",
         iv=(0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
             0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179))
S = dict(words=4, bits=32, rounds=10, block=64, rot=(16, 12, 8, 7), fmt="<8I", mfmt="<16I",
         iv=(0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB,
             0x5BE0CD19))
SIGMA = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
         [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
         [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
         [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
         [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
         [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
         [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
         [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
         [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
         [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0]]


def _compress(c, h, block, t, last, last_node):
    mask = (1 << c["bits"]) - 1
    rot = c["rot"]

    def rotr(x, n):
        return ((x >> n) | (x << (c["bits"] - n))) & mask

    m = struct.unpack(c["mfmt"], block)
    v = list(h) + list(c["iv"])
    v[12] ^= t & mask
    v[13] ^= (t >> c["bits"]) & mask
    if last:
        v[14] ^= mask
        if last_node:
            v[15] ^= mask
    for r in range(c["rounds"]):
        s = SIGMA[r % 10]
        for i, (a, b, cc, d) in enumerate([(0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14),
                                           (3, 7, 11, 15), (0, 5, 10, 15), (1, 6, 11, 12),
                                           (2, 7, 8, 13), (3, 4, 9, 14)]):
            x, y = m[s[2 * i]], m[s[2 * i + 1]]
            v[a] = (v[a] + v[b] + x) & mask
            v[d] = rotr(v[d] ^ v[a], rot[0])
            v[cc] = (v[cc] + v[d]) & mask
            v[b] = rotr(v[b] ^ v[cc], rot[1])
            v[a] = (v[a] + v[b] + y) & mask
            v[d] = rotr(v[d] ^ v[a], rot[2])
            v[cc] = (v[cc] + v[d]) & mask
            v[b] = rotr(v[b] ^ v[cc], rot[3])
    return [h[i] ^ v[i] ^ v[i + 8] for i in range(8)]


def blake2(b, param_block, data, key=b"", last_node=False):
    """The hash of data with the given parameter block (64 or 32 bytes; its first byte is the
    digest length, its second the key length) and key."""
    c = B if b else S
    params = struct.unpack(c["fmt"], param_block)
    h = [iv ^ p for iv, p in zip(c["iv"], params)]
    size = c["block"]
    stream = (key.ljust(size, b"\0") if key else b"") + data
    t = 0
    blocks = [stream[i:i + size] for i in range(0, len(stream), size)] or [b""]
    for i, block in enumerate(blocks):
        last = i == len(blocks) - 1
        t += len(block)
        h = _compress(c, h, block.ljust(size, b"\0"), t, last, last_node)
    return struct.pack(c["fmt"], *h)[:param_block[0]]


def param_block(b, digest_size, key_size=0, fanout=1, depth=1, leaf=0, node_offset=0,
                xof_length=0, node_depth=0, inner=0, salt=b"", person=b""):
    """A BLAKE2 parameter block (BLAKE2X's output length in the node offset's upper bytes)."""
    if b:
        head = struct.pack("<BBBBIIIBB", digest_size, key_size, fanout, depth, leaf, node_offset,
                           xof_length, node_depth, inner) + bytes(14)
        return head + salt.ljust(16, b"\0") + person.ljust(16, b"\0")
    head = struct.pack("<BBBBIIHBB", digest_size, key_size, fanout, depth, leaf, node_offset,
                       xof_length, node_depth, inner)
    return head + salt.ljust(8, b"\0") + person.ljust(8, b"\0")


def blake2x(b, data, length, key=b"", salt=b"", person=b""):
    """BLAKE2Xb or BLAKE2Xs as the BLAKE2X reference code computes it: the root hash with the
    output length in its parameters, then one hash of it per 64 (or 32) bytes of output."""
    out = 64 if b else 32
    root = blake2(b, param_block(b, out, len(key), xof_length=length, salt=salt, person=person),
                  data, key)
    result = b""
    for i in range((length + out - 1) // out):
        size = min(out, length - i * out)
        # The output nodes keep the key's length in their parameters, but absorb no key.
        block = param_block(b, size, len(key), fanout=0, depth=0, leaf=out, node_offset=i,
                            xof_length=length, inner=out, salt=salt, person=person)
        result += blake2(b, block, root)
    return result
