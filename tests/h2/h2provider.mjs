// SPDX-License-Identifier: MIT
// A provider that speaks only HTTP/2 over TLS (ALPN h2), for tst_noresend: it breaks each stream in the
// way MODE names and prints one JSON line per stream it received, so the test counts what reached it.
//   node h2provider.mjs CERT KEY MODE
// MODE:
//   goaway-unprocessed  GOAWAY saying no stream was processed (last stream id 0), then the connection ends:
//                       the case where an HTTP/2 client may retry on a new connection
//   goaway-after-read   the whole body is read, then GOAWAY naming this stream as processed, and the
//                       connection ends without an answer
//   refused             RST_STREAM REFUSED_STREAM: "not processed, safe to retry" in HTTP/2's terms
// The first line on stdout is {"port": N}; then {"stream": n, "path": …, "bytes": …} per stream.
import fs from 'node:fs';
import http2 from 'node:http2';

const [cert, key, mode] = process.argv.slice(2);
if (!cert || !key || !['goaway-unprocessed', 'goaway-after-read', 'refused'].includes(mode)) {
    console.error('usage: node h2provider.mjs CERT KEY goaway-unprocessed|goaway-after-read|refused');
    process.exit(2);
}
const server = http2.createSecureServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key), allowHTTP1: false });
let streams = 0;
server.on('stream', (stream, headers) => {
    const n = ++streams;
    const session = stream.session;
    if (mode === 'goaway-unprocessed') {
        console.log(JSON.stringify({ stream: n, path: headers[':path'], bytes: 0 }));
        session.goaway(http2.constants.NGHTTP2_NO_ERROR, 0);
        setTimeout(() => session.destroy(), 50);
        return;
    }
    if (mode === 'refused') {
        console.log(JSON.stringify({ stream: n, path: headers[':path'], bytes: 0 }));
        // The refusal is this stream's error on our side too: handled, or Node ends the process on the
        // first one, and a stream sent again would find no provider to count it.
        stream.on('error', () => {});
        stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
        return;
    }
    let bytes = 0;
    stream.on('data', (chunk) => { bytes += chunk.length; });
    stream.on('end', () => {
        console.log(JSON.stringify({ stream: n, path: headers[':path'], bytes }));
        session.goaway(http2.constants.NGHTTP2_NO_ERROR, stream.id);
        setTimeout(() => session.destroy(), 50);
    });
});
server.on('sessionError', () => {});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
