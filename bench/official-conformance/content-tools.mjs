#!/usr/bin/env node
/**
 * The official conformance suite's fixture tools whose answers are content
 * blocks a canned world tool cannot make (image, audio, embedded resource,
 * several at once): an SDK McpServer over stdio that `conformance-world.json`
 * mounts as an upstream, so costlab serves them with its own grants and audit
 * and passes their content on as it came. The images and sound are the
 * smallest valid files of their kind, made here rather than copied.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { deflateSync } from 'node:zlib';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
/** A 1×1 red PNG. */
function redPixelPng() {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]).toString('base64');
}
/** 10 ms of silence: a WAV of 8-bit mono samples at 8 kHz. */
function silentWav() {
  const samples = 80;
  const out = Buffer.alloc(44 + samples, 128);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + samples, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(8000, 24);
  out.writeUInt32LE(8000, 28);
  out.writeUInt16LE(1, 32);
  out.writeUInt16LE(8, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(samples, 40);
  return out.toString('base64');
}

const png = redPixelPng();
const resource = {
  type: 'resource',
  resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
};
const server = new McpServer({ name: 'conformance-content-tools', version: '1.0.0' });
const readOnly = { annotations: { readOnlyHint: true } };
server.registerTool('test_image_content', { description: 'Returns a 1x1 red PNG.', ...readOnly }, async () => ({
  content: [{ type: 'image', data: png, mimeType: 'image/png' }],
}));
server.registerTool(
  'test_audio_content',
  { description: 'Returns 10 ms of silence as WAV.', ...readOnly },
  async () => ({ content: [{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }] }),
);
server.registerTool(
  'test_embedded_resource',
  { description: 'Returns an embedded text resource.', ...readOnly },
  async () => ({ content: [resource] }),
);
server.registerTool(
  'test_multiple_content_types',
  { description: 'Returns text, an image and a resource.', ...readOnly },
  async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: png, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  }),
);
await server.connect(new StdioServerTransport());
